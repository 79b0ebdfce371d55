"""Regenerate the proxy reference page of tests/prints/test_proxies.py, by hand only:

    .venv/bin/python -m tests.prints.write_reference

after a deliberate change of the faces or the layout. Look at the new PNG before committing it.
The settings are chosen before anything imports Django: faces are drawn into a scratch cache,
never taken from a cache an earlier rendering filled.
"""

import os
import sys
import tempfile
from pathlib import Path


def main() -> None:
    with tempfile.TemporaryDirectory() as faces:
        os.environ["DJANGO_SETTINGS_MODULE"] = "cardsite.settings"
        os.environ["FACE_CACHE_DIR"] = faces
        import django

        django.setup()
        from django.conf import settings

        from tests.prints.test_proxies import REFERENCE_PAGE, REFERENCES, reference_page

        assert str(Path(faces).resolve()) in str(settings.CACHES)
        REFERENCES.mkdir(exist_ok=True)
        reference_page().save(REFERENCE_PAGE, optimize=True)
    print(f"wrote {REFERENCE_PAGE}")


if __name__ == "__main__":
    if sys.argv[1:]:
        sys.exit("usage: python -m tests.prints.write_reference")
    main()
