"""The proposals API: propose a card or a change for an official set, list and read
proposals, and decide them (curators) or withdraw them (their proposer).

Every endpoint needs a user (a session with its CSRF token, or `Authorization: Token`).
A proposal is fetched as the requester sees it first (`proposal_get`): for anyone but its
proposer and the curators of its set it does not exist (404), whatever they try; the
service then decides whether they may do what they ask (403 if not)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.urls import path
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer

from accounts.limits import identities
from catalog import selectors as catalog_selectors
from catalog.api.errors import ApiError, service_errors
from catalog.api.parsers import BoundedJSONParser
from catalog.api.throttles import WriteThrottle
from catalog.api.views import ERRORS, MAX_PAGE, PAGE_SIZE, ApiView, api_input, list_object
from catalog.models import Card, CardSet
from contributions import selectors
from contributions.merging import ABSENT
from contributions.models import Proposal
from contributions.serializers import (
    AcceptInput,
    ProposalCreateInput,
    ProposalDetailOutput,
    ProposalErrorOutput,
    ProposalListOutput,
    ProposalOutput,
    ProposalSummaryOutput,
    ProposalUpdateInput,
    RejectInput,
    RequestChangesInput,
)
from contributions.services import (
    ProposalClosed,
    ProposalConflict,
    ProposalInvalid,
    ProposalStale,
    proposal_accept,
    proposal_create,
    proposal_reject,
    proposal_request_changes,
    proposal_update,
    proposal_withdraw,
)
from validator.engine import nearest_word, whole_number

# A decision refused for the state of the proposal or the card.
DECISION_ERRORS = {**ERRORS, 409: ProposalErrorOutput}


def _present(value: Any) -> Any:
    return None if value is ABSENT else value


@contextmanager
def proposal_errors() -> Iterator[None]:
    """The API error for what the contributions services raise, beside the catalog's own
    (a document that does not parse: 400 naming each `effects.<path>`; a refusal: 403; a
    limit: 429). A stale proposal's error names the revision to review; a conflict's, each
    conflicting field with its three values."""
    try:
        with service_errors(document_path="effects"):
            yield
    except ProposalInvalid as exc:
        field = "effects" if exc.field in ("document", "name") else exc.field
        raise ApiError(400, "invalid", [(field, exc.message)]) from exc
    except ProposalClosed as exc:
        raise ApiError(409, "closed", [("status", str(exc))]) from exc
    except ProposalStale as exc:
        error = ApiError(409, "stale", [("reviewed_revision", str(exc))])
        items: list[dict[str, Any]] = error.errors
        items[0]["current_revision"] = exc.current_revision
        raise error from exc
    except ProposalConflict as exc:
        rows = exc.conflicts
        if not rows:
            raise ApiError(409, "conflict", [("effects", str(exc))]) from exc
        error = ApiError(
            409, "conflict", [(f"effects.{row.key}", f"{exc} ({row.key})") for row in rows]
        )
        conflicts: list[dict[str, Any]] = error.errors
        for item, row in zip(conflicts, rows, strict=True):
            item.update(
                base=_present(row.base),
                current=_present(row.current),
                proposed=_present(row.proposed),
            )
        raise error from exc


def _proposal(request: Request, proposal_id: int) -> Proposal:
    proposal = selectors.proposal_get(proposal_id=proposal_id, viewer=request.user)
    if proposal is None:
        raise NotFound(f"no proposal {proposal_id}")
    return proposal


def _set(request: Request, code: str) -> CardSet:
    card_set = catalog_selectors.set_get(code=code, viewer=request.user)
    if card_set is None:
        raise NotFound(f"no set with code {code!r}")
    return card_set


def _card(request: Request, card_set: CardSet, card_id: int | None) -> Card | None:
    if card_id is None:
        return None
    card = catalog_selectors.card_get(card_id=card_id, viewer=request.user, set_code=card_set.code)
    if card is None or card.card_set_id != card_set.pk:
        raise ApiError(400, "invalid", [("card", f"{card_set.name} has no card {card_id}")])
    return card


def _output(
    request: Request, proposal: Proposal, serializer: type[Serializer[Any]] = ProposalOutput
) -> dict[str, Any]:
    return dict(serializer(proposal, context={"request": request}).data)


def _query_choice(request: Request, key: str, choices: list[str]) -> str | None:
    """A query parameter that must be one of `choices` (blank: any); 400 naming them and
    the nearest."""
    value = request.query_params.get(key, "")
    if not value:
        return None
    if value in choices:
        return value
    hint = nearest_word(value, choices)
    message = f"unknown {key} {value!r}" + (f"; did you mean {hint!r}?" if hint else "")
    raise ApiError(400, "invalid", [(key, f"{message} ({key}s: {', '.join(choices)})")])


class ProposalView(ApiView):
    """Signed-in users only; writes throttled like the catalog's."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]


class SetProposals(ProposalView):
    parser_classes = [BoundedJSONParser, MultiPartParser]

    @extend_schema(
        operation_id="sets_proposals_create",
        request={
            "application/json": ProposalCreateInput,
            "multipart/form-data": ProposalCreateInput,
        },
        responses={201: ProposalOutput, **ERRORS},
    )
    def post(self, request: Request, code: str) -> Response:
        """Propose, for an official set, a new card (`card` null) or a change to one of its
        cards (`card` its id; `base_revision` the revision read, default the current one),
        with `evidence` saying where the facts come from. To attach a photo of the physical
        card, send the same keys as multipart/form-data with the file in `photo` and
        `effects` as a JSON string. 201 with the proposal, waiting for a curator; 400 naming
        each bad path of the document (`effects.<path>`, with the nearest word), a set that
        takes no proposals (custom or private), a card not in the set, an unknown base
        revision or missing evidence (nothing is stored); 404 for a set the requester may not
        see; 429 past the hourly number of proposals."""
        data = api_input(ProposalCreateInput, request)
        card_set = _set(request, code)
        card = _card(request, card_set, data["card"])
        with proposal_errors():
            proposal = proposal_create(
                proposer=request.user,
                card_set=card_set,
                card=card,
                document=data["effects"],
                base_revision=data["base_revision"],
                evidence=data["evidence"],
                photo=data["photo"],
                idents=identities(request),
            )
        return Response(_output(request, proposal), status=201)


class ProposalList(ProposalView):
    @extend_schema(
        operation_id="proposals_list",
        parameters=[
            OpenApiParameter(
                "set", str, description="only the proposals of the set with this code"
            ),
            OpenApiParameter("status", str, enum=list(selectors.STATUSES)),
            OpenApiParameter("page", int),
        ],
        responses={200: ProposalListOutput, **ERRORS},
    )
    def get(self, request: Request) -> Response:
        """The requester's own proposals and, for a curator, every proposal of the sets they
        review; newest first, 60 a page. 400 for a status that is not one (naming them and
        the nearest) or a page number out of range."""
        status = _query_choice(request, "status", list(selectors.STATUSES))
        page = whole_number(request.query_params.get("page", "1"), low=1, high=MAX_PAGE)
        if page is None:
            raise ApiError(
                400, "invalid", [("page", f"page must be a whole number from 1 to {MAX_PAGE}")]
            )
        proposals = selectors.proposal_list(
            viewer=request.user, set_code=request.query_params.get("set") or None, status=status
        ).select_related("accepted_revision")
        total = proposals.count()
        found = proposals[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
        data = ProposalSummaryOutput(found, many=True, context={"request": request}).data
        return Response(list_object(request, list(data), total, page, []))


class ProposalDetail(ProposalView):
    parser_classes = [BoundedJSONParser, MultiPartParser]

    @extend_schema(responses={200: ProposalDetailOutput, **ERRORS})
    def get(self, request: Request, proposal_id: int) -> Response:
        """One proposal with its evidence, the address of its photo and its review: the
        difference against the card as it is, the three-way difference when the card has
        been saved since the proposal (`stale`), the validator's report and rules text, other
        pending proposals of the same new card (`duplicates`). Only for its proposer and the
        set's curators: 404 for anyone else."""
        proposal = _proposal(request, proposal_id)
        review = selectors.proposal_review(proposal=proposal)
        context = {"request": request, "review": review}
        return Response(dict(ProposalDetailOutput(proposal, context=context).data))

    @extend_schema(
        request={
            "application/json": ProposalUpdateInput,
            "multipart/form-data": ProposalUpdateInput,
        },
        responses={200: ProposalOutput, **DECISION_ERRORS},
    )
    def patch(self, request: Request, proposal_id: int) -> Response:
        """The proposer's new version of a pending proposal (after changes were asked for,
        or rebased on the card's newest revision with `base_revision`): its whole document
        and evidence, and in multipart a new photo. It waits for review again. 400 as for
        proposing; 409 `closed` once decided; 403 for a curator, 404 for anyone else."""
        data = api_input(ProposalUpdateInput, request)
        proposal = _proposal(request, proposal_id)
        with proposal_errors():
            proposal = proposal_update(
                proposal=proposal,
                actor=request.user,
                document=data["effects"],
                evidence=data["evidence"],
                base_revision=data["base_revision"],
                photo=data["photo"],
            )
        return Response(_output(request, proposal))


class ProposalAccept(ProposalView):
    @extend_schema(request=AcceptInput, responses={200: ProposalOutput, **DECISION_ERRORS})
    def post(self, request: Request, proposal_id: int) -> Response:
        """Accept an open proposal (curators of its set): the card gets a new revision
        recording the proposer, the curator and the evidence. A stale proposal (the card has
        been saved since) needs `reviewed_revision`, the card's current revision whose
        three-way difference was reviewed: only what the proposal changed is applied to it.
        409 `stale` (the error's `current_revision` to review), `conflict` (each field both
        changed, with its base, current and proposed values; nothing is written) or `closed`;
        403 for anyone else who may see it (its proposer), 404 for the rest."""
        data = api_input(AcceptInput, request)
        proposal = _proposal(request, proposal_id)
        with proposal_errors():
            proposal = proposal_accept(
                proposal=proposal,
                curator=request.user,
                reviewed_revision=data["reviewed_revision"],
            )
        return Response(_output(request, proposal))


class ProposalReject(ProposalView):
    @extend_schema(request=RejectInput, responses={200: ProposalOutput, **DECISION_ERRORS})
    def post(self, request: Request, proposal_id: int) -> Response:
        """Reject a pending proposal, saying why (curators of its set). 400 without a
        reason; 409 `closed` once decided; 403 for its proposer, 404 for the rest."""
        data = api_input(RejectInput, request)
        proposal = _proposal(request, proposal_id)
        with proposal_errors():
            proposal = proposal_reject(
                proposal=proposal, curator=request.user, reason=data["reason"]
            )
        return Response(_output(request, proposal))


class ProposalRequestChanges(ProposalView):
    @extend_schema(request=RequestChangesInput, responses={200: ProposalOutput, **DECISION_ERRORS})
    def post(self, request: Request, proposal_id: int) -> Response:
        """Ask the proposer to change an open proposal (curators of its set); it waits for
        their new version. 400 without a message; 409 `closed` unless it is open; 403 for
        its proposer, 404 for the rest."""
        data = api_input(RequestChangesInput, request)
        proposal = _proposal(request, proposal_id)
        with proposal_errors():
            proposal = proposal_request_changes(
                proposal=proposal, curator=request.user, message=data["message"]
            )
        return Response(_output(request, proposal))


class ProposalWithdraw(ProposalView):
    @extend_schema(request=None, responses={200: ProposalOutput, **DECISION_ERRORS})
    def post(self, request: Request, proposal_id: int) -> Response:
        """Withdraw a pending proposal (its proposer only; its photo is deleted). 409
        `closed` once decided; 403 for a curator, 404 for anyone else."""
        proposal = _proposal(request, proposal_id)
        with proposal_errors():
            proposal = proposal_withdraw(proposal=proposal, actor=request.user)
        return Response(_output(request, proposal))


urlpatterns = [
    path("sets/<slug:code>/proposals/", SetProposals.as_view(), name="set_proposals"),
    path("proposals/", ProposalList.as_view(), name="proposal_list"),
    path("proposals/<int:proposal_id>/", ProposalDetail.as_view(), name="proposal_detail"),
    path("proposals/<int:proposal_id>/accept/", ProposalAccept.as_view(), name="proposal_accept"),
    path("proposals/<int:proposal_id>/reject/", ProposalReject.as_view(), name="proposal_reject"),
    path(
        "proposals/<int:proposal_id>/request-changes/",
        ProposalRequestChanges.as_view(),
        name="proposal_request_changes",
    ),
    path(
        "proposals/<int:proposal_id>/withdraw/",
        ProposalWithdraw.as_view(),
        name="proposal_withdraw",
    ),
]
