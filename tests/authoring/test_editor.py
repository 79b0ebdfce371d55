"""The card editor: form + YAML halves, live preview, saves, conflicts, history, trash, art."""

import io
import re
from typing import Any

import pytest
import yaml
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from PIL import Image

from authoring.editor import merge_document, preview, split_document
from catalog.models import Card, CardRevision, CardSet
from catalog.services import card_create, card_delete, set_create
from tests.conftest import CORE_SET
from tests.factories import monster_document
from validator.engine import dump_card, parse_card
from validator.models import CardCheck


def form_data(document: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """What the editor's form posts for a document."""
    values, text = split_document(document)
    data = {k: ("" if v is None else v) for k, v in values.items()}
    data["document_yaml"] = text
    data.update(extra)
    return data


@pytest.fixture
def her_set(alice: User) -> CardSet:
    return set_create(owner=alice, code="alices-set", name="Alice's Set")


@pytest.fixture
def as_alice(client: Client, alice: User) -> Client:
    client.force_login(alice)
    return client


def test_every_core_card_splits_into_form_and_yaml_and_back() -> None:
    for entry in yaml.safe_load(CORE_SET.read_text())["cards"]:
        # A set file's `provenance:` sits beside the card's document, never in it.
        document = {key: value for key, value in entry.items() if key != "provenance"}
        values, text = split_document(document)
        merged = merge_document(values, text)
        assert merged.errors == [], document["name"]
        assert merged.document is not None
        assert dump_card(parse_card(merged.document)) == dump_card(parse_card(document))


def test_a_key_in_both_halves_is_an_error_on_its_yaml_line() -> None:
    merged = merge_document({"name": "X", "kind": "monster", "level": 3}, "tags: []\nlevel: 4\n")
    assert [(e.path, e.line) for e in merged.errors] == [("level", 2)]


def test_preview_places_errors_on_fields_and_lines() -> None:
    values = {"name": "Ogre", "kind": "monster", "deck": "door", "level": 3, "treasures": 1}
    result = preview(values, "encoding:\n  status: full\nbad_stuf: []\n", set_code="x")
    assert result.errors and result.errors[0].line == 3
    assert "did you mean 'bad_stuff'" in result.errors[0].message
    result = preview({**values, "level": -2}, "encoding:\n  status: full\n", set_code="x")
    assert [e.field for e in result.errors] == ["level"]


@pytest.mark.django_db
def test_preview_endpoint_answers_while_typing(as_alice: Client, her_set: CardSet) -> None:
    url = f"/author/preview/{her_set.code}/"
    body = as_alice.post(url, form_data(monster_document(), document_yaml="encodin: {}")).json()
    assert body["ok"] is False
    assert any("did you mean 'encoding'" in e["message"] and e["line"] == 1 for e in body["errors"])
    body = as_alice.post(url, form_data(monster_document())).json()
    assert body["ok"] is True and body["face"].startswith("data:image/png;base64,")
    assert body["report"]["status"] in ("pass", "warn") and body["text"] is not None
    assert not Card.objects.exists()  # a preview stores nothing


@pytest.mark.django_db
def test_preview_is_for_the_set_owner(client: Client, bob: User, her_set: CardSet) -> None:
    url = f"/author/preview/{her_set.code}/"
    assert client.post(url, form_data(monster_document())).status_code == 302  # to log in
    client.force_login(bob)
    assert client.post(url, form_data(monster_document())).status_code == 404  # private set


@pytest.mark.django_db
def test_a_new_card_is_saved_as_revision_1_and_validated(
    as_alice: Client, her_set: CardSet, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
    with django_capture_on_commit_callbacks(execute=False) as committed:
        response = as_alice.post(
            f"/author/sets/{her_set.code}/add-card/", form_data(monster_document())
        )
    assert response.status_code == 302
    card = Card.objects.get(card_set=her_set)
    assert response["Location"] == f"/sets/{her_set.code}/{card.slug}/"
    assert card.revision == 1 and CardRevision.objects.get(card=card).number == 1
    # The save answers before the rules engine has checked the card: the page says so.
    page = as_alice.get(response["Location"]).content.decode()
    assert "Saved &#x27;Test Ogre&#x27; as revision 1." in page
    assert 'data-testid="validation">unchecked<' in page and "reload this page" in page
    for callback in committed:  # the save's transaction commits: the task worker checks it
        callback()
    assert CardCheck.objects.filter(document_hash=card.document_hash).exists()
    reloaded = as_alice.get(response["Location"]).content.decode()
    assert 'data-testid="validation">pass<' in reloaded


@pytest.mark.django_db
def test_a_bad_save_shows_errors_and_writes_nothing(as_alice: Client, her_set: CardSet) -> None:
    data = form_data(monster_document(), document_yaml="encoding:\n  status: full\nefects: []\n")
    response = as_alice.post(f"/author/sets/{her_set.code}/add-card/", data)
    assert response.status_code == 400
    page = response.content.decode()
    # The error links to its line of the YAML (the editor moves the caret there).
    assert 'data-line="3">line 3</a>: efects: unknown key' in page
    assert not Card.everything.exists()


def stat_rows(page: str) -> dict[str, bool]:
    """{stat field: shown} for the editor's stat rows as the page is served."""
    rows = re.findall(r'<div class="form-row stat-row[^"]*" data-field="(\w+)"( hidden)?>', page)
    return {name: not hidden for name, hidden in rows}


@pytest.mark.django_db
def test_stat_rows_of_other_kinds_are_served_hidden(
    as_alice: Client, alice: User, her_set: CardSet
) -> None:
    rows = stat_rows(as_alice.get(f"/author/sets/{her_set.code}/add-card/").content.decode())
    # A new card starts as a monster: level, treasures and levels gained (the rulebook's
    # monster stats), none of an item's.
    assert rows["level"] and rows["treasures"] and rows["levels_gained"]
    assert not rows["slot"] and not rows["gold"] and not rows["big"]
    item = card_create(
        card_set=her_set,
        actor=alice,
        document={
            "name": "Shiny Hat",
            "kind": "item",
            "deck": "treasure",
            "slot": "headgear",
            "bonus": 1,
            "gold": 200,
            "big": False,
            "encoding": {"status": "full"},
        },
    )
    page = as_alice.get(f"/author/sets/{her_set.code}/cards/{item.slug}/").content.decode()
    rows = stat_rows(page)
    assert rows["slot"] and rows["gold"] and rows["bonus"]
    assert not rows["level"] and not rows["treasures"]


@pytest.mark.django_db
def test_only_a_blank_new_card_waits_for_a_first_edit(
    as_alice: Client, alice: User, her_set: CardSet
) -> None:
    blank = as_alice.get(f"/author/sets/{her_set.code}/add-card/").content.decode()
    assert "data-fresh" in blank and 'data-testid="save-errors"' not in blank
    card = card_create(card_set=her_set, actor=alice, document=monster_document())
    edit = as_alice.get(f"/author/sets/{her_set.code}/cards/{card.slug}/").content.decode()
    assert "data-fresh" not in edit
    copied = as_alice.get(f"/author/sets/{her_set.code}/add-card/?from={card.pk}")
    assert "data-fresh" not in copied.content.decode()


@pytest.mark.django_db
def test_the_help_links_to_the_effect_language_page(as_alice: Client, her_set: CardSet) -> None:
    page = as_alice.get(f"/author/sets/{her_set.code}/add-card/").content.decode()
    assert 'href="/docs/effect-language/" data-testid="effect-language-link"' in page
    assert as_alice.get("/docs/effect-language/").status_code == 200


@pytest.mark.django_db
def test_a_stale_save_is_refused_and_shows_both_versions(
    as_alice: Client, alice: User, her_set: CardSet
) -> None:
    card = card_create(card_set=her_set, actor=alice, document=monster_document(level=3))
    url = f"/author/sets/{her_set.code}/cards/{card.slug}/"
    # Two tabs open the card at revision 1; the first saves level 4 ...
    first = as_alice.post(url, form_data(monster_document(level=4), base_revision=1))
    assert first.status_code == 302
    # ... and the second, still based on revision 1, tries level 9.
    second = as_alice.post(url, form_data(monster_document(level=9), base_revision=1))
    assert second.status_code == 409
    page = second.content.decode()
    assert "This card changed while you were editing" in page
    assert "level: 4" in page and "level: 9" in page  # theirs and yours
    assert 'name="base_revision" value="2"' in page  # saving again is now deliberate
    card.refresh_from_db()
    assert (card.level, card.revision) == (4, 2)
    again = as_alice.post(url, form_data(monster_document(level=9), base_revision=2))
    assert again.status_code == 302
    card.refresh_from_db()
    assert (card.level, card.revision) == (9, 3)


@pytest.mark.django_db
def test_history_shows_diffs_and_revert_adds_a_revision(
    as_alice: Client, alice: User, her_set: CardSet
) -> None:
    card = card_create(card_set=her_set, actor=alice, document=monster_document(level=3))
    as_alice.post(
        f"/author/sets/{her_set.code}/cards/{card.slug}/",
        form_data(monster_document(level=5), base_revision=1),
    )
    history = as_alice.get(f"/sets/{her_set.code}/{card.slug}/history/").content.decode()
    assert "-level: 3" in history and "+level: 5" in history
    response = as_alice.post(
        f"/author/sets/{her_set.code}/cards/{card.slug}/revert/1/", {"base_revision": 2}
    )
    assert response.status_code == 302
    card.refresh_from_db()
    assert (card.level, card.revision) == (3, 3)
    assert CardRevision.objects.get(card=card, number=3).source == "revert to r1"


@pytest.mark.django_db
def test_delete_and_restore_a_card_and_a_set(
    as_alice: Client, alice: User, her_set: CardSet
) -> None:
    card = card_create(card_set=her_set, actor=alice, document=monster_document())
    as_alice.post(f"/author/sets/{her_set.code}/cards/{card.slug}/delete/")
    assert as_alice.get(f"/sets/{her_set.code}/{card.slug}/").status_code == 404
    assert card.name in as_alice.get("/author/trash/").content.decode()
    as_alice.post(f"/author/trash/cards/{card.pk}/restore/")
    assert as_alice.get(f"/sets/{her_set.code}/{card.slug}/").status_code == 200
    as_alice.post(f"/author/sets/{her_set.code}/delete/")
    assert as_alice.get(f"/sets/{her_set.code}/").status_code == 404
    as_alice.post(f"/author/sets/{her_set.code}/restore/")
    assert as_alice.get(f"/sets/{her_set.code}/{card.slug}/").status_code == 200


@pytest.mark.django_db
def test_start_from_another_card_prefills_the_editor(
    as_alice: Client, bob: User, her_set: CardSet
) -> None:
    his = set_create(owner=bob, code="bobs-set", name="Bob's", visibility="public")
    source = card_create(card_set=his, actor=bob, document=monster_document("Swamp Thing"))
    response = as_alice.get(f"/author/start-from/?into={her_set.code}&from={source.pk}")
    assert response["Location"] == f"/author/sets/{her_set.code}/add-card/?from={source.pk}"
    page = as_alice.get(response["Location"]).content.decode()
    assert 'value="Swamp Thing"' in page
    # A private card cannot be copied by someone who cannot see it.
    his.visibility = "private"
    his.save()
    assert as_alice.get(response["Location"]).status_code == 404


def _image(fmt: str, size: tuple[int, int] = (40, 60), mode: str = "RGB") -> io.BytesIO:
    buffer = io.BytesIO()
    Image.new(mode, size).save(buffer, fmt)
    buffer.seek(0)
    buffer.name = f"art.{fmt.lower()}"
    return buffer


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("upload", "error"),
    [
        (lambda: _image("GIF"), "art must be PNG, JPEG, WEBP, not GIF"),
        (lambda: _image("PNG", (6000, 6000), "1"), "art is limited to 12.6 megapixels; this"),
        (
            lambda: _image("PNG", (4100, 4100), "1"),
            "art is limited to 12.6 megapixels; this one is 4100x4100 (16.8 megapixels): make "
            "it smaller and upload it again",
        ),
        (lambda: io.BytesIO(b"not an image at all"), "could not be read as an image"),
    ],
)
def test_art_is_checked_by_pillow(
    as_alice: Client, her_set: CardSet, upload: Any, error: str, settings: Any
) -> None:
    data = form_data(monster_document(), art=upload())
    response = as_alice.post(f"/author/sets/{her_set.code}/add-card/", data)
    assert response.status_code == 400
    assert error in response.content.decode()
    assert not Card.everything.exists()


@pytest.mark.django_db
def test_art_over_the_byte_limit_is_refused(
    as_alice: Client, her_set: CardSet, settings: Any
) -> None:
    settings.ART_MAX_BYTES = 4 * 1024
    noise = io.BytesIO()
    Image.effect_noise((200, 200), 100).save(noise, "PNG")  # noise does not compress
    assert len(noise.getvalue()) > 4 * 1024
    noise.seek(0)
    noise.name = "art.png"
    response = as_alice.post(
        f"/author/sets/{her_set.code}/add-card/", form_data(monster_document(), art=noise)
    )
    assert response.status_code == 400
    assert "art is limited to 4 KB" in response.content.decode()
    assert not Card.everything.exists()


@pytest.mark.django_db
def test_good_art_is_kept_and_shown(
    as_alice: Client, her_set: CardSet, settings: Any, tmp_path: Any
) -> None:
    settings.MEDIA_ROOT = tmp_path
    data = form_data(monster_document(), art=_image("PNG"))
    response = as_alice.post(f"/author/sets/{her_set.code}/add-card/", data)
    card = Card.objects.get()
    assert str(card.art.name).endswith(".png")
    page = as_alice.get(response["Location"]).content.decode()
    assert reverse("catalog:card_art", args=[card.pk]) in page
    assert as_alice.get(reverse("catalog:card_art", args=[card.pk])).status_code == 200


@pytest.mark.django_db
def test_user_text_is_escaped_everywhere_it_shows(
    as_alice: Client, alice: User, her_set: CardSet
) -> None:
    evil = "<script>alert(1)</script>"
    her_set.description = evil
    her_set.save()
    card = card_create(
        card_set=her_set,
        actor=alice,
        document=monster_document(
            evil, notes=evil, encoding={"status": "text_only", "reason": evil}
        ),
    )
    for url in (
        f"/sets/{her_set.code}/",
        f"/sets/{her_set.code}/{card.slug}/",
        f"/sets/{her_set.code}/{card.slug}/history/",
        f"/author/sets/{her_set.code}/cards/{card.slug}/",
        f"/cards/?q={her_set.code}&view=list",
        "/accounts/alice/",
    ):
        page = as_alice.get(url).content.decode()
        assert evil not in page, url
    page = as_alice.get(f"/sets/{her_set.code}/{card.slug}/").content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_saves_of_one_card_never_both_win() -> None:
    """Two requests based on the same revision, at the same moment, on their own connections:
    exactly one is saved, the other is refused, and both documents are kept."""
    import threading

    from django.db import connection, connections

    from catalog.services import StaleRevisionError, card_update

    if connection.vendor == "sqlite":
        pytest.skip("SQLite serialises writers itself; the race is exercised on PostgreSQL")
    alice = User.objects.create_user("alice2")
    card_set = set_create(owner=alice, code="race", name="Race")
    card = card_create(card_set=card_set, actor=alice, document=monster_document(level=1))
    barrier = threading.Barrier(2)
    outcomes: dict[int, str] = {}

    def save(level: int) -> None:
        try:
            barrier.wait()
            mine = Card.objects.get(pk=card.pk)
            card_update(
                card=mine, actor=alice, document=monster_document(level=level), base_revision=1
            )
            outcomes[level] = "saved"
        except StaleRevisionError:
            outcomes[level] = "refused"
        finally:
            connections.close_all()

    threads = [threading.Thread(target=save, args=(level,)) for level in (5, 9)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes.values()) == ["refused", "saved"]
    card.refresh_from_db()
    winner = next(level for level, outcome in outcomes.items() if outcome == "saved")
    assert (card.revision, card.level) == (2, winner)
    assert CardRevision.objects.filter(card=card).count() == 2


@pytest.mark.django_db
def test_start_from_an_unlisted_card_needs_its_sets_code(
    as_alice: Client, bob: User, her_set: CardSet
) -> None:
    """Card ids are sequential: "start from" an unlisted set's card by its id alone is a 404;
    its card page's form sends the set's code along, and that opens the editor."""
    his = set_create(owner=bob, code="hidden", name="Hidden", visibility="unlisted")
    source = card_create(card_set=his, actor=bob, document=monster_document("Swamp Thing"))
    new = f"/author/sets/{her_set.code}/add-card/"
    for url in (
        f"{new}?from={source.pk}",
        f"{new}?from={source.pk}&set=bob-other",
        f"/author/start-from/?into={her_set.code}&from={source.pk}",
    ):
        response = as_alice.get(url, follow=True)
        assert response.status_code == 404 and "bob-hidden" not in response.content.decode()
    page = as_alice.get(f"/sets/bob-hidden/{source.slug}/").content.decode()
    assert '<input type="hidden" name="set" value="bob-hidden">' in page
    response = as_alice.get(
        "/author/start-from/", {"into": her_set.code, "from": str(source.pk), "set": "bob-hidden"}
    )
    assert response["Location"] == f"{new}?from={source.pk}&set=bob-hidden"
    assert 'value="Swamp Thing"' in as_alice.get(response["Location"]).content.decode()


@pytest.mark.django_db
def test_restoring_anothers_deleted_card_by_id_is_a_404(
    as_alice: Client, bob: User, her_set: CardSet
) -> None:
    his = set_create(owner=bob, code="hidden", name="Hidden", visibility="unlisted")
    card = card_create(card_set=his, actor=bob, document=monster_document("Swamp Thing"))
    card_delete(card=card, actor=bob)
    response = as_alice.post(f"/author/trash/cards/{card.pk}/restore/")
    assert response.status_code == 404 and "bob-hidden" not in response.content.decode()
