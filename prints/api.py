"""The prints API: proxy sheets as a PDF."""

from __future__ import annotations

from django.http import HttpResponse
from django.urls import path
from django.utils.cache import patch_cache_control
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request

from accounts.limits import identities
from catalog import selectors as catalog_selectors
from catalog.api.errors import ApiError
from catalog.api.throttles import ValidateThrottle
from catalog.api.views import ERRORS, ApiView
from prints import jobs
from prints.forms import ProxyForm
from prints.sheets import ProxyError
from prints.sources import pack_source


class ProxySheets(ApiView):
    permission_classes = [AllowAny]
    throttle_classes = [ValidateThrottle]

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        responses={(200, "application/pdf"): OpenApiTypes.BINARY, **ERRORS},
    )
    def post(self, request: Request) -> HttpResponse:
        """Proxy sheets as a PDF. The body takes the proxy page's fields: what to print
        (`sets` [codes], `pack` [id of one of your packs], `query`, or `cards`: names, one per
        line) and how (`paper` a4|letter|a3|custom, `paper_size` "WxH" mm, `orientation`,
        `card_size` munchkin|poker|custom, `custom_card_size`, `bleed` 0..3, `gutter`,
        `margin`, `cut_marks` margin|lines|none, `backs` none|pages|duplex-long|duplex-short,
        `offset_x`, `offset_y`, `instructions`, `alignment_page`, `ink_saving`: faces with a
        thin frame and no filled bands). At most 1,000 copies of at
        most 10 different cards here; the page makes larger ones in the background. 400 names
        each bad field. PDFs are counted per user and per address (`PROXY_PDF_PER_HOUR` an
        hour): past it, 429 with `Retry-After`, the error saying when to retry."""
        body = request.data if isinstance(request.data, dict) else {}
        if isinstance(body.get("cards"), list):
            body = {**body, "cards": "\n".join(str(c) for c in body["cards"])}
        listed = catalog_selectors.listed_sets(viewer=request.user)
        packs = pack_source().choices(viewer=request.user)
        form = ProxyForm(body, set_choices=[(s.code, s.name) for s in listed], pack_choices=packs)
        if not form.is_valid():
            raise ValidationError(
                {name: [str(m) for m in errors] for name, errors in form.errors.items()}
            )
        try:
            options = form.options()
            cards = jobs.proxy_cards(selection=form.selection(), viewer=request.user)
            copies = sum(card.copies for card in cards)
            if copies > API_PROXY_COPIES:
                raise ProxyError(
                    f"{copies} copies: the API makes at most {API_PROXY_COPIES}; use the proxy "
                    "page, which makes larger PDFs in the background"
                )
            faces = jobs.distinct_faces(cards)
            if faces > jobs.SYNC_FACES:
                raise ProxyError(
                    f"{faces} different cards: the API makes PDFs of at most "
                    f"{jobs.SYNC_FACES} different cards (each face is drawn while the request "
                    "waits); use the proxy page, which makes larger PDFs in the background"
                )
            filename, content_type, content = jobs.proxy_pdf_now(
                cards=cards, options=options, idents=identities(request)
            )
        except ProxyError as exc:
            raise ApiError(400, "invalid", [("", str(exc))]) from exc
        except jobs.PackNotFound as exc:
            raise NotFound(str(exc)) from exc
        response = HttpResponse(content, content_type=content_type)
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        patch_cache_control(response, private=True)  # may hold the requester's own sets
        return response


API_PROXY_COPIES = 1000


urlpatterns = [
    path("proxies/", ProxySheets.as_view(), name="proxies"),
]
