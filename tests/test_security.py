"""The promises of docs/security.md that no other test file holds: the headers every response
carries, the cookies, what is escaped, and the limits. (The others name their test file in the
document.)"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import re
from pathlib import Path

import pytest
from django.conf import global_settings, settings
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils.module_loading import import_string
from PIL import Image
from rest_framework.test import APIClient

from authoring.forms import check_art
from authoring.models import CardScenario
from authoring.scenarios import ScenarioNameError, scenario_create
from catalog.models import Card, CardSet, Visibility
from catalog.search.parser import MAX_QUERY_LENGTH
from catalog.services import SetError, card_create, set_create
from catalog.services import cards as catalog_cards
from catalog.services import sets as catalog_sets
from packs import services as pack_services
from packs.selectors import PackBuildError, pack_get
from packs.services import pack_build, pack_create
from prints import api as prints_api
from prints import jobs as proxy_jobs
from prints.jobs import ProxySelection, proxy_cards
from prints.sheets import ProxyError
from tests.authoring.test_scenarios import WINS
from tests.conftest import CORE_SET, PASSWORD
from tests.factories import monster_document
from tests.settings_env import load_settings
from validator.engine import CardDocumentError

REPO = Path(__file__).resolve().parent.parent
PAGE = "/"
API = "/api/cards/?q=level%3E10"


@pytest.fixture
def core(db: None) -> None:
    call_command("load_catalog", str(CORE_SET), stdout=io.StringIO())


# --------------------------------------------------------------------------------------------
# Headers
# --------------------------------------------------------------------------------------------


def _csp(client: Client, url: str) -> dict[str, list[str]]:
    response = client.get(url)
    assert response.status_code == 200
    directives: dict[str, list[str]] = {}
    for part in response["Content-Security-Policy"].split(";"):
        name, *values = part.split()
        directives[name] = values
    return directives


@pytest.mark.parametrize("url", [PAGE, API])
def test_pages_and_the_api_send_a_strict_content_security_policy(
    client: Client, core: None, url: str
) -> None:
    csp = _csp(client, url)
    assert csp["default-src"] == ["'self'"]
    assert csp["script-src"] == ["'self'"]  # no 'unsafe-inline', no 'unsafe-eval'
    assert csp["style-src"] == ["'self'"]
    assert csp["object-src"] == ["'none'"]
    assert csp["frame-ancestors"] == ["'none'"]
    assert csp["base-uri"] == ["'none'"]
    assert not any("unsafe" in value for values in csp.values() for value in values)


@pytest.mark.parametrize("url", [PAGE, API])
def test_pages_and_the_api_forbid_framing_sniffing_and_outside_referrers(
    client: Client, core: None, url: str
) -> None:
    response = client.get(url)
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"


def test_faces_of_private_sets_stay_out_of_shared_caches(client: Client, alice: User) -> None:
    faces = {}
    for visibility in (Visibility.PRIVATE, Visibility.PUBLIC):
        card_set = set_create(
            owner=alice, code=f"{visibility}-set", name="S", visibility=visibility
        )
        faces[visibility] = card_create(card_set=card_set, actor=alice, document=monster_document())
    client.force_login(alice)
    for visibility, card in faces.items():
        url = reverse("prints:card_face", kwargs={"card_id": card.pk, "digest": "x"})
        response = client.get(url, follow=True)
        assert response.status_code == 200
        scope = "public" if visibility == Visibility.PUBLIC else "private"
        assert response["Cache-Control"].startswith(f"{scope},"), visibility


# --------------------------------------------------------------------------------------------
# Cookies and secrets
# --------------------------------------------------------------------------------------------


def test_the_session_cookie_is_http_only_and_same_site(client: Client, alice: User) -> None:
    response = client.post(
        reverse("accounts:login"),
        {"username": "alice", "password": "correct-horse-battery-9"},
    )
    assert response.status_code == 302
    cookie = response.cookies[settings.SESSION_COOKIE_NAME]
    assert cookie["httponly"]
    assert cookie["samesite"] == "Lax"


def test_cookies_are_secure_when_debug_is_off() -> None:
    loaded = load_settings(DEBUG="false", SECRET_KEY="x" * 50, ALLOWED_HOSTS="cards.example")
    assert not loaded.refused, loaded.error
    assert (loaded.values["SESSION_COOKIE_SECURE"], loaded.values["CSRF_COOKIE_SECURE"]) == (
        True,
        True,
    )


def test_passwords_are_stored_as_django_hashes(alice: User) -> None:
    alice.refresh_from_db()
    assert PASSWORD not in alice.password
    assert alice.check_password(PASSWORD)
    assert not alice.check_password(PASSWORD + "x")


def test_the_site_hashes_passwords_with_pbkdf2() -> None:
    # The site's own hashers, not the fast one the tests use (tests/conftest.py): the first of
    # the embedded settings' list (Django's own list when the file names none) hashes a password,
    # which is then recomputed here with hashlib alone.
    loaded = load_settings()
    assert not loaded.refused, loaded.error
    hashers = loaded.values.get("PASSWORD_HASHERS", global_settings.PASSWORD_HASHERS)
    hasher = import_string(hashers[0])()
    encoded = hasher.encode("correct-horse-battery-9", hasher.salt())
    algorithm, iterations, salt, digest = encoded.split("$")
    assert algorithm == "pbkdf2_sha256"
    # OWASP's password storage cheat sheet asks at least 600,000 rounds of PBKDF2-HMAC-SHA256.
    assert int(iterations) >= 600_000
    expected = hashlib.pbkdf2_hmac(
        "sha256", b"correct-horse-battery-9", salt.encode(), int(iterations)
    )
    assert base64.b64decode(digest) == expected


# --------------------------------------------------------------------------------------------
# Escaping
# --------------------------------------------------------------------------------------------

HTML_WRITERS = re.compile(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write")
UNESCAPED = re.compile(r"\|\s*safe\b|autoescape\s+off|safeseq")


def _files(pattern: str) -> list[Path]:
    return [
        path
        for app in ("catalog", "authoring", "accounts", "validator", "cardsite")
        for path in (REPO / app).rglob(pattern)
    ]


def test_scripts_write_text_never_html() -> None:
    scripts = _files("*.js")
    assert scripts  # the site has scripts: the check below looks at them
    for path in scripts:
        assert not HTML_WRITERS.search(path.read_text()), path


def test_templates_never_turn_escaping_off() -> None:
    templates = _files("*.html")
    assert templates
    for path in templates:
        assert not UNESCAPED.search(path.read_text()), path


def test_a_card_name_is_shown_as_text(client: Client, alice: User) -> None:
    card_set = set_create(owner=alice, code="x-set", name="<b>Set</b>", visibility="public")
    name = '<script>alert("x")</script> Ogre'
    card_create(card_set=card_set, actor=alice, document=monster_document(name))
    card = Card.objects.get(card_set=card_set)
    response = client.get(
        reverse("catalog:card_detail", kwargs={"code": card_set.code, "slug": card.slug})
    )
    body = response.content.decode()
    assert "<script>alert" not in body
    assert "&lt;script&gt;alert" in body
    assert "<b>Set</b>" not in body


# --------------------------------------------------------------------------------------------
# Limits
# --------------------------------------------------------------------------------------------


def test_the_api_cuts_a_long_query_with_a_warning(client: Client, core: None) -> None:
    response = client.get("/api/cards/", {"q": "troll " + "x" * MAX_QUERY_LENGTH})
    assert response.status_code == 200
    assert any(f"longer than {MAX_QUERY_LENGTH}" in w for w in response.json()["warnings"])


def test_search_pages_hold_at_most_60_cards_and_page_numbers_are_bounded(
    client: Client, core: None
) -> None:
    body = client.get("/api/cards/", {"q": "deck:door"}).json()
    assert body["total"] > 60
    assert len(body["data"]) == 60
    assert client.get("/api/cards/", {"q": "deck:door", "page": "10001"}).status_code == 400
    # A page number far past any list is refused as a number before any query (issue 17).
    huge = client.get("/cards/", {"q": "deck:door", "page": "99999999999"})
    assert huge.status_code == 400
    assert "pages" in huge.content.decode()


def _upload(image: Image.Image, fmt: str = "PNG") -> SimpleUploadedFile:
    buffer = io.BytesIO()
    image.save(buffer, fmt)
    return SimpleUploadedFile(f"art.{fmt.lower()}", buffer.getvalue())


def _art_refusal(upload: SimpleUploadedFile) -> str:
    try:
        check_art(upload)
    except ValidationError as exc:
        return " ".join(exc.messages)
    return ""


# The limits docs/security.md gives for card art: 2 MB, 4096 x 3072 pixels, PNG/JPEG/WebP, and
# Pillow's decompression-bomb guard at 16 million pixels. (Mode "1" keeps the big images small.)
def test_art_is_held_to_2_mb() -> None:
    two_mb = 2 * 1024 * 1024
    over = SimpleUploadedFile("art.png", b"\x89PNG" + b"\0" * (two_mb - 3))
    assert _art_refusal(over) == "art is limited to 2048 KB"
    noise = Image.frombytes("RGB", (830, 830), os.urandom(830 * 830 * 3))  # ~2.07 MB raw
    under = _upload(noise)
    assert 2_000_000 < len(under.read()) <= two_mb  # random pixels do not compress
    under.seek(0)
    assert _art_refusal(under) == ""


def test_art_is_held_to_4096_by_3072_pixels() -> None:
    assert _art_refusal(_upload(Image.new("1", (4096, 3072)))) == ""
    assert _art_refusal(_upload(Image.new("1", (3072, 4096)))) == ""
    assert _art_refusal(_upload(Image.new("1", (4000, 4000)))) == (
        "art is limited to 12.6 megapixels; this one is 4000x4000 (16.0 megapixels): make it "
        "smaller and upload it again"
    )


def test_pillow_refuses_to_open_twice_the_pixel_limit() -> None:
    # Pillow's own guard (89 million pixels by default) would open either of these.
    buffer = io.BytesIO()
    Image.new("1", (6000, 6000)).save(buffer, "PNG")
    with pytest.raises(Image.DecompressionBombError):
        Image.open(io.BytesIO(buffer.getvalue()))
    buffer = io.BytesIO()
    Image.new("1", (4500, 4500)).save(buffer, "PNG")
    with pytest.warns(Image.DecompressionBombWarning):
        Image.open(io.BytesIO(buffer.getvalue())).close()


@pytest.mark.parametrize(
    ("fmt", "refused"),
    [
        ("PNG", False),
        ("JPEG", False),
        ("WEBP", False),
        ("GIF", True),
        ("BMP", True),
        ("TIFF", True),
    ],
)
def test_art_formats_are_png_jpeg_and_webp(fmt: str, refused: bool) -> None:
    message = _art_refusal(_upload(Image.new("RGB", (40, 60)), fmt))
    assert message == (f"art must be PNG, JPEG, WEBP, not {fmt}" if refused else "")


def test_a_user_has_a_bounded_number_of_sets_and_cards(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(catalog_sets, "MAX_SETS_PER_USER", 1)
    monkeypatch.setattr(catalog_cards, "MAX_CARDS_PER_SET", 1)
    card_set = set_create(owner=alice, code="one", name="One")
    with pytest.raises(SetError, match="the most allowed"):
        set_create(owner=alice, code="two", name="Two")
    card_create(card_set=card_set, actor=alice, document=monster_document("A"))
    with pytest.raises(CardDocumentError, match="at most 1 cards"):
        card_create(card_set=card_set, actor=alice, document=monster_document("B"))
    assert CardSet.everything.filter(owner=alice).count() == 1
    assert Card.objects.filter(card_set=card_set).count() == 1


def test_scenarios_are_bounded_in_size_and_number(
    core: None, alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    card_set = set_create(owner=alice, code="my-set", name="My Set", visibility="public")
    card = card_create(card_set=card_set, actor=alice, document=monster_document(level=3))
    with pytest.raises(CardDocumentError, match="at most 20,000 characters"):
        scenario_create(card=card, actor=alice, name="big", text=WINS + "#" * 20_000)
    monkeypatch.setattr("authoring.scenarios.MAX_SCENARIOS_PER_CARD", 1)
    scenario_create(card=card, actor=alice, name="one", text=WINS)
    with pytest.raises(ScenarioNameError, match="at most 1 scenarios"):
        scenario_create(card=card, actor=alice, name="two", text=WINS)
    assert CardScenario.objects.filter(card=card).count() == 1


def test_proxy_sheets_and_packs_are_bounded(core: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prints_api, "API_PROXY_COPIES", 10)
    response = APIClient().post("/api/proxies/", {"sets": ["munchkin-core"]}, format="json")
    assert response.status_code == 400
    assert "the API makes at most 10" in response.content.decode()
    monkeypatch.setattr(proxy_jobs, "MAX_COPIES", 10)
    with pytest.raises(ProxyError, match="more than the 10"):
        proxy_cards(selection=ProxySelection(sets=["munchkin-core"]), viewer=AnonymousUser())
    monkeypatch.setattr(pack_services, "MAX_PACK_CARDS", 10)
    with pytest.raises(PackBuildError, match="at most 10 cards"):
        pack_build(actor=None, set_codes=["munchkin-core"])
    one = Card.objects.filter(card_set__code="munchkin-core").first()
    assert one is not None
    with pytest.raises(PackBuildError, match="copies run from 0"):
        pack_build(actor=None, set_codes=["munchkin-core"], copies={one.pk: 100})


# --------------------------------------------------------------------------------------------
# Who may do what (the rest is in tests/test_permissions.py)
# --------------------------------------------------------------------------------------------


def test_a_pack_is_its_builders_alone(core: None, alice: User) -> None:
    bob = User.objects.create_user("bob")
    pack = pack_create(actor=alice, built=pack_build(actor=alice, set_codes=["munchkin-core"]))
    assert pack_get(pack_id=pack.pk, viewer=alice) == pack
    for viewer in (bob, AnonymousUser()):
        assert pack_get(pack_id=pack.pk, viewer=viewer) is None
