"""Site documentation pages: Markdown files of docs/ rendered inside the site's own layout.

Only the files named in DOC_PAGES are served (a slug never becomes a path). The HTML is made
once per file version and kept in memory: the file changes only with a deploy, and its
modification time is part of the cache key, so an edited file is rendered again."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import slugify
from markdown_it import MarkdownIt

from authoring.controls import glossary_rows
from authoring.selectors import effect_examples

DOC_PAGES: dict[str, str] = {"effect-language": "effect-language.md"}


@dataclass(frozen=True)
class DocPage:
    title: str
    html: SafeString


def _heading_ids(html: str) -> str:
    """Give each h2/h3 an id from its text, so the page's sections can be linked to."""
    seen: set[str] = set()

    def add_id(match: re.Match[str]) -> str:
        level, inner = match.group(1), match.group(2)
        base = slugify(re.sub(r"<[^>]+>", "", inner)) or "section"
        anchor, n = base, 2
        while anchor in seen:
            anchor, n = f"{base}-{n}", n + 1
        seen.add(anchor)
        return f'<h{level} id="{anchor}">{inner}</h{level}>'

    return re.sub(r"<h([23])>(.*?)</h\1>", add_id, html)


@lru_cache(maxsize=8)
def _rendered(path: Path, mtime_ns: int) -> DocPage:
    text = path.read_text(encoding="utf-8")
    # html=False: raw HTML in the Markdown is shown as text, never passed through.
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = md.parse(text)
    title = next(
        (
            tokens[i + 1].content
            for i, t in enumerate(tokens)
            if t.type == "heading_open" and t.tag == "h1"
        ),
        path.stem,
    )
    html = _heading_ids(md.renderer.render(tokens, md.options, {}))
    # Wide tables scroll in their own box on a phone instead of widening the page.
    html = html.replace("<table>", '<div class="doc-table"><table>').replace(
        "</table>", "</table></div>"
    )
    # Safe: our own file, rendered with raw HTML off.
    return DocPage(title=title, html=mark_safe(html))


def doc_page(slug: str) -> DocPage:
    """The rendered page of a listed docs/ file (LookupError for any other slug)."""
    path = Path(settings.BASE_DIR) / "docs" / DOC_PAGES[slug]
    return _rendered(path, path.stat().st_mtime_ns)


def doc_view(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        page = doc_page(slug)
    except LookupError:
        raise Http404(f"No documentation page {slug!r}") from None
    context: dict[str, object] = {"page": page}
    if slug == "effect-language":
        # Every effect type and condition in plain words with a catalog card that uses it,
        # from the engine's glossary and the catalog as they are now (not from the file).
        context["glossary"] = glossary_rows(examples=effect_examples())
    return render(request, "cardsite/doc_page.html", context)
