from django import template

from catalog.selectors import kind_label as _kind_label

register = template.Library()


@register.filter
def kind_label(kind: str) -> str:
    return _kind_label(kind)


@register.filter
def signed(value: int | None) -> str:
    if value is None:
        return "?"
    return f"+{value}" if value > 0 else str(value)


@register.filter
def get_item(mapping: dict[int, str], key: int) -> str:
    return mapping.get(key, "")
