"""The site's documentation pages rendered from docs/*.md."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from cardsite import docs

pytestmark = pytest.mark.django_db

SOURCE = Path(settings.BASE_DIR) / "docs" / "effect-language.md"


def test_the_effect_language_page_renders_the_markdown_in_the_site(client: Client) -> None:
    response = client.get("/docs/effect-language/")
    assert response.status_code == 200
    page = response.content.decode()
    text = SOURCE.read_text()
    title = text.splitlines()[0].removeprefix("# ")
    assert f"<h1>{title}</h1>" in page
    assert f"<title>{title} ·" in page  # inside the site's base template
    assert 'class="site-header"' in page
    # Every second-level heading of the file is a linkable section of the page.
    for heading in re.findall(r"^## (.+)$", text, flags=re.M):
        assert re.search(rf'<h2 id="[a-z0-9-]+">{re.escape(heading)}</h2>', page), heading
    # The kinds table is a table, in a box of its own that scrolls on a phone.
    assert '<div class="doc-table"><table>' in page and "<td><code>monster</code></td>" in page


def test_raw_html_in_the_markdown_is_shown_as_text(tmp_path: Path) -> None:
    source = tmp_path / "x.md"
    source.write_text("# T\n\n<script>alert(1)</script>\n")
    page = docs._rendered(source, 1)
    assert "<script>" not in page.html and "&lt;script&gt;" in page.html


def test_the_rendering_is_cached_per_file_version(tmp_path: Path) -> None:
    source = tmp_path / "x.md"
    source.write_text("# One\n")
    first = docs._rendered(source, source.stat().st_mtime_ns)
    assert docs._rendered(source, source.stat().st_mtime_ns) is first
    source.write_text("# Two\n")
    assert docs._rendered(source, source.stat().st_mtime_ns + 1).title == "Two"


def test_only_listed_pages_are_served(client: Client) -> None:
    assert client.get("/docs/security/").status_code == 404  # a file of docs/, not listed
    assert client.get("/docs/..%2Fpyproject/").status_code == 404
