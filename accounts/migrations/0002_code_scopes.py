"""Every user gets a scope of set codes, and every custom set's code is moved into its owner's
scope (`<scope>-<old code>`), so that no set of one user can share a code with another's."""

import re

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.utils.text import slugify

# As accounts.services.scope_candidate when this migration was written.
MAX_SCOPE_LENGTH = 20
MAX_CODE_LENGTH = 60


def scope_candidate(username):
    word = re.sub(r"[^a-z0-9]", "", slugify(username))
    return word if re.fullmatch(rf"[a-z][a-z0-9]{{0,{MAX_SCOPE_LENGTH - 1}}}", word) else None


def give_scopes_and_move_codes(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    CodeScope = apps.get_model("accounts", "CodeScope")
    CardSet = apps.get_model("catalog", "CardSet")
    given = set()
    scopes = {}
    for user in User.objects.order_by("pk"):
        candidate = scope_candidate(user.username)
        scope = candidate if candidate and candidate not in given else str(user.pk)
        given.add(scope)
        scopes[user.pk] = scope
        CodeScope.objects.create(user=user, scope=scope)
    taken = set(CardSet.objects.values_list("code", flat=True))
    for card_set in CardSet.objects.filter(owner__isnull=False).order_by("pk"):
        scope = scopes[card_set.owner_id]
        if card_set.code.startswith(f"{scope}-"):
            continue
        base = f"{scope}-{card_set.code}"[:MAX_CODE_LENGTH].rstrip("-")
        code, number = base, 1
        while code in taken:
            number += 1
            code = f"{base[: MAX_CODE_LENGTH - len(str(number)) - 1].rstrip('-')}-{number}"
        taken.discard(card_set.code)
        taken.add(code)
        card_set.code = code
        card_set.save(update_fields=["code"])


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_api_tokens"),
        ("catalog", "0009_packs_and_prints_leave"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="CodeScope",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("scope", models.SlugField(max_length=30, unique=True)),
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="code_scope",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
        ),
        migrations.RunPython(give_scopes_and_move_codes, migrations.RunPython.noop),
    ]
