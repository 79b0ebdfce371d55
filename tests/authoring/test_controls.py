"""The card editor's controls, server side (issue 23): what the controls are drawn from (the
engine's card schema and glossary), the document they edit (the YAML's mapping as JSON, for
every fixture card), the example cards taken from the catalog, and the bounds on what they read.
"""

from __future__ import annotations

import html
import io
import json
from typing import Any, Literal

import pytest
import yaml
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from pydantic import Field

from authoring.controls import MAX_CONTROLS_DATA_CHARS, controls_config, controls_data
from authoring.editor import merge_document, split_document
from authoring.selectors import condition_suggestions, effect_examples
from authoring.starters import STARTERS
from catalog.models import Card
from catalog.services import card_create, set_create
from tests.conftest import CORE_SET, FIXTURE_SETS
from validator.engine import (
    CONDITION_GLOSSARY,
    CONDITION_TYPES,
    EFFECT_GLOSSARY,
    EFFECT_TYPES,
    OUTCOME_TYPES,
    EffectBase,
    card_json_schema,
    dump_card,
    effect_type_name,
    parse_card,
)


def fixture_documents() -> list[dict[str, Any]]:
    documents = []
    for path in sorted(FIXTURE_SETS.glob("*.yaml")):
        for entry in yaml.safe_load(path.read_text())["cards"]:
            documents.append({k: v for k, v in entry.items() if k != "provenance"})
    return documents


def test_every_fixture_card_round_trips_through_the_controls_model() -> None:
    """Opened in the editor and saved unchanged: the form's values plus the controls' model
    (the YAML's mapping, through JSON as the browser holds it) give the same document."""
    documents = fixture_documents()
    assert len(documents) > 300  # every seed set
    for document in documents:
        values, text = split_document(document)
        data = controls_data(text)
        assert data is not None, document["name"]
        in_browser = json.loads(json.dumps(data))
        # What the save reads back when the controls write the model as YAML (the JSON form
        # of the mapping is YAML too; the browser's YAML writer is checked in tests/e2e).
        merged = merge_document(values, json.dumps(in_browser))
        assert merged.errors == [], document["name"]
        assert merged.document is not None
        assert dump_card(parse_card(merged.document)) == dump_card(parse_card(document))


def test_the_glossary_names_every_effect_type_and_condition() -> None:
    types = {effect_type_name(t) for t in EFFECT_TYPES}
    assert set(EFFECT_GLOSSARY) == types
    assert set(CONDITION_GLOSSARY) == {c.key for c in CONDITION_TYPES}
    for entry in (*EFFECT_GLOSSARY.values(), *CONDITION_GLOSSARY.values()):
        assert entry.title and entry.help.endswith("."), entry
        assert len(entry.help) <= 110, entry  # one line under a control


def test_the_config_marks_outcomes_and_carries_the_published_schema() -> None:
    config = controls_config(examples={})
    assert config["schema"] == card_json_schema()
    assert {name for name, e in config["effects"].items() if e["outcome"]} == set(OUTCOME_TYPES)
    assert config["effects"]["strength"]["title"] == "+N to combat strength"
    assert config["effects"]["no_pursuit"]["title"] == "Monster will not pursue"
    assert config["conditions"]["race"]["help"]
    # The form's own fields are not drawn again by the controls.
    assert "monster" in config["form_fields"]["level"]
    assert "effects" not in config["form_fields"]


class Shout(EffectBase):
    """The player shouts, frightening the monster."""

    type: Literal["shout"]
    times: int = Field(ge=1, le=9)
    loud: bool = False

    def describe(self, ctx: object) -> str:
        return f"shout {self.times} times" + (", loudly" if self.loud else "")


def with_definition(effect: type[EffectBase]) -> dict[str, Any]:
    """The card schema with one more effect type in the effects' union, as the engine would
    publish it once the definition joins the language."""
    schema = card_json_schema()
    name = effect_type_name(effect)
    schema["$defs"][effect.__name__] = effect.model_json_schema(ref_template="#/$defs/{model}")
    for union in schema["$defs"].values():
        if union.get("discriminator", {}).get("propertyName") == "type":
            union["oneOf"].append({"$ref": f"#/$defs/{effect.__name__}"})
            union["discriminator"]["mapping"][name] = f"#/$defs/{effect.__name__}"
    return schema


def test_a_new_effect_type_needs_no_editor_code() -> None:
    config = controls_config(
        examples={}, effect_types=(*EFFECT_TYPES, Shout), schema=with_definition(Shout)
    )
    # Named from its definition until the glossary gives it plain words.
    assert config["effects"]["shout"] == {
        "title": "Shout",
        "help": "The player shouts, frightening the monster.",
        "group": "",
        "outcome": False,
        "example": None,
    }
    fields = config["schema"]["$defs"]["Shout"]["properties"]
    assert fields["times"] == {"maximum": 9, "minimum": 1, "title": "Times", "type": "integer"}


def test_controls_data_reads_only_plain_mappings() -> None:
    assert controls_data("effects:\n- {type: wins_ties}\n") == {"effects": [{"type": "wins_ties"}]}
    assert controls_data("") == {}
    assert controls_data("- a list\n") is None  # not a mapping: YAML only
    assert controls_data("effects: [\n") is None  # does not read
    assert controls_data("1: one\n") is None  # a number as a key would come back as text
    assert controls_data("when: 2024-01-01\n") is None  # a date is not JSON
    assert controls_data("x: .inf\n") is None
    assert controls_data(f"x: {2**60}\n") is None  # past a browser's whole numbers


def test_controls_data_is_bounded() -> None:
    # Aliases expand a short YAML far past the controls' limit: edited as text only.
    bomb = "a: &a [" + ", ".join(["xxxxxxxxxx"] * 100) + "]\n"
    bomb += "b: &b [" + ", ".join(["*a"] * 100) + "]\n"
    assert len(bomb) < 2_000
    assert controls_data(bomb) is None
    assert len(json.dumps({"a": ["xxxxxxxxxx"] * 100, "b": [["xxxxxxxxxx"] * 100] * 100})) > (
        MAX_CONTROLS_DATA_CHARS
    )


@pytest.mark.django_db
def test_examples_come_from_catalog_cards_that_use_each_type() -> None:
    call_command("load_catalog", str(CORE_SET), stdout=io.StringIO())
    examples = effect_examples()
    assert {"strength", "lose_levels", "no_pursuit", "death"} <= set(examples["effects"])
    assert {"race", "class", "all", "not"} <= set(examples["conditions"])
    # Words to suggest: the core set's races and classes, from its cards and its conditions.
    words = condition_suggestions()
    assert {"elf", "dwarf", "halfling"} <= set(words["race"])
    assert {"cleric", "thief", "warrior", "wizard"} <= set(words["class"])
    core = yaml.safe_load(CORE_SET.read_text())["cards"]
    for family, key in [("effects", "no_pursuit"), ("conditions", "race")]:
        example = examples[family][key]
        card = Card.objects.get(card_set__code="munchkin-core", name=example["name"])
        assert example["url"] == f"/sets/munchkin-core/{card.slug}/"
        # The card's own set-file entry uses it (read from the file, not from the database).
        entry = next(c for c in core if c["name"] == example["name"])
        text = json.dumps(entry)
        assert (f'"type": "{key}"' if family == "effects" else f'"{key}": ') in text

    # The clearest example: no core card using the type has a shorter document.
    def size(entry: dict[str, Any]) -> int:
        card = {k: v for k, v in entry.items() if k != "provenance"}
        return len(json.dumps(dump_card(parse_card(card))))

    users = [c for c in core if '"type": "no_pursuit"' in json.dumps(c)]
    chosen = next(c for c in users if c["name"] == examples["effects"]["no_pursuit"]["name"])
    assert size(chosen) == min(size(c) for c in users)


@pytest.mark.django_db
def test_the_controls_address_serves_the_config(client: Client) -> None:
    response = client.get("/author/card-controls.json")
    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=600"
    body = response.json()
    assert body["effects"]["lose_levels"]["outcome"] is True
    assert client.post("/author/card-controls.json").status_code == 405


@pytest.mark.django_db
def test_the_preview_sends_the_yaml_back_as_the_controls_read_it(client: Client) -> None:
    user = User.objects.create_user("ann", password="x")
    card_set = set_create(owner=user, code="ann-set", name="Ann's")
    client.force_login(user)
    form = {"name": "Ogre", "kind": "monster", "deck": "door", "copies": "1", "level": "3"}
    text = "effects:\n- {type: strength, amount: 2, when: {race: elf}}\nencoding: {status: full}\n"
    body = client.post(f"/author/preview/{card_set.code}/", {**form, "document_yaml": text}).json()
    assert body["yaml_data"] == {
        "effects": [{"type": "strength", "amount": 2, "when": {"race": "elf"}}],
        "encoding": {"status": "full"},
    }
    body = client.post(
        f"/author/preview/{card_set.code}/", {**form, "document_yaml": "effects: [\n"}
    ).json()
    assert body["yaml_data"] is None and not body["ok"]


@pytest.mark.parametrize("slug", sorted(STARTERS))
def test_every_template_is_a_card_the_engine_reads(slug: str) -> None:
    document = STARTERS[slug].document
    assert dump_card(parse_card(document)) == document  # valid, and already in canonical form


def test_the_templates_are_the_four_shapes_of_the_issue() -> None:
    kinds = {slug: s.document["kind"] for slug, s in STARTERS.items()}
    assert sorted(kinds.values()) == ["curse", "item", "monster", "one_shot"]
    monster = STARTERS["monster-vs-class"].document
    assert "class" in monster["effects"][0]["when"]  # a bonus against a class
    assert "race" in STARTERS["item-for-a-race"].document["usable_by"]
    assert STARTERS["curse-lose-an-item"].document["effects"][0]["type"] == "lose_items"


@pytest.mark.django_db
def test_start_from_a_template_or_a_card_by_name(client: Client) -> None:
    call_command("load_catalog", str(CORE_SET), stdout=io.StringIO())
    user = User.objects.create_user("bea", password="x")
    card_set = set_create(owner=user, code="bea-set", name="Bea's")
    client.force_login(user)
    url = f"/author/sets/{card_set.code}/add-card/"
    page = client.get(url)
    assert page.status_code == 200
    for slug in STARTERS:
        assert f'href="?template={slug}"' in page.content.decode()
    page = client.get(url, {"template": "item-for-a-race"})
    assert page.context["form"].initial["name"] == "New item"
    assert page.context["controls_data"]["usable_by"] == {"race": "elf"}
    page = client.get(url, {"from_name": "squidzilla"})
    assert page.context["form"].initial["level"] == 18  # the core set's Squidzilla
    # Bad input is refused, naming what is accepted, and nothing is stored.
    bad = client.get(url, {"template": "dragon"})
    assert bad.status_code == 400 and "monster-vs-class" in bad.content.decode()
    assert client.get(url, {"from_name": "x" * 81}).status_code == 400
    missing = client.get(url, {"from_name": "No Such Card"}, follow=True)
    assert "No card named 'No Such Card'" in html.unescape(missing.content.decode())
    assert card_set.cards.count() == 0


@pytest.mark.django_db
def test_the_reference_page_lists_every_effect_with_an_example(client: Client) -> None:
    call_command("load_catalog", str(CORE_SET), stdout=io.StringIO())
    page = client.get("/docs/effect-language/")
    assert page.status_code == 200
    text = html.unescape(page.content.decode())
    assert "Every effect and condition in plain words" in text
    for cls in EFFECT_TYPES:
        assert f'data-name="{effect_type_name(cls)}"' in text
    for cond in CONDITION_TYPES:
        assert f'data-name="{cond.key}"' in text
    # Squidzilla's "+4 against an Elf" is in the core set: strength has an example there.
    row = text.split('data-name="strength"')[1].split("</tr>")[0]
    assert "+N to combat strength" in row and 'href="/sets/munchkin-core/' in row


@pytest.mark.django_db
def test_start_from_by_name_never_finds_another_users_unlisted_card(client: Client) -> None:
    owner = User.objects.create_user("owen", password="x")
    hidden = set_create(owner=owner, code="owen-hidden", name="Hidden", visibility="unlisted")
    card_create(
        card_set=hidden,
        actor=owner,
        document={
            "name": "Secret Ogre",
            "deck": "door",
            "kind": "monster",
            "copies": 1,
            "level": 3,
            "treasures": 1,
            "encoding": {"status": "full"},
        },
    )
    user = User.objects.create_user("cal", password="x")
    mine = set_create(owner=user, code="cal-set", name="Cal's")
    client.force_login(user)
    page = client.get(f"/author/sets/{mine.code}/add-card/", {"from_name": "secret ogre"})
    assert "No card named" in html.unescape(page.content.decode())
    assert page.context["form"].initial.get("name") is None
    client.force_login(owner)  # its owner finds it
    page = client.get(f"/author/sets/{hidden.code}/add-card/", {"from_name": "secret ogre"})
    assert page.context["form"].initial["name"] == "Secret Ogre"
