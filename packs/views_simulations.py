"""Pages of a pack's simulations: start one, watch it run, read its statistics and plots.

Who may see a pack's simulations (and start one): its owner, or anyone when the pack has no
owner; starting needs a login. A pack someone may not see is a 404, as if it did not exist.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.csp import CSP
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_POST, require_safe

from accounts.limits import TooManyRequests, client_address
from packs import simulations as services
from packs.models import Pack, PackSimulation, SimulationStatus
from packs.plots import PLOTS, PLOTS_BY_SLUG, PLOTS_VERSION

# A finished simulation never changes: its plots may be kept for a year.
PLOT_MAX_AGE = 365 * 24 * 3600
# The plot's own document: no script, nothing loaded; matplotlib styles with style attributes.
PLOT_CSP = {
    "default-src": [CSP.NONE],
    "style-src": [CSP.UNSAFE_INLINE],
    "frame-ancestors": [CSP.SELF],
}
PIXELS_PER_INCH = 96


def can_see_pack(user: AbstractBaseUser | AnonymousUser, pack: Pack) -> bool:
    """The pack's owner, or anyone when the pack has no owner."""
    if pack.owner_id is None:
        return True
    return bool(user.is_authenticated and user.pk == pack.owner_id)


def _pack(request: HttpRequest, pack_id: int) -> Pack:
    pack = Pack.objects.filter(pk=pack_id).first()
    if pack is None or not can_see_pack(request.user, pack):
        raise Http404(f"No pack {pack_id}")
    return pack


def _simulation(pack: Pack, simulation_id: int) -> PackSimulation:
    return get_object_or_404(PackSimulation, pk=simulation_id, pack=pack)


def _pack_url(pack: Pack) -> str:
    return reverse("packs:pack_detail", args=[pack.pk])


class SimulationForm(forms.Form):
    """What the "Simulate" button may choose; each field falls back to the service's default."""

    games = forms.IntegerField(
        required=False, min_value=services.MIN_GAMES, max_value=services.MAX_GAMES
    )
    players = forms.IntegerField(
        required=False, min_value=services.MIN_PLAYERS, max_value=services.MAX_PLAYERS
    )
    seed = forms.IntegerField(required=False, min_value=0, max_value=services.MAX_SEED)


@login_required
@require_POST
def simulation_start(request: HttpRequest, pack_id: int) -> HttpResponse:
    """Start a simulation of the pack and show its page; a refusal goes back with a message."""
    pack = _pack(request, pack_id)
    form = SimulationForm(request.POST)
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        back = _pack_url(pack)
    if not form.is_valid():
        for field, errors in form.errors.items():
            for error in errors:
                messages.error(request, f"Simulation not started: {field}: {error}")
        return redirect(back)
    chosen = {key: value for key, value in form.cleaned_data.items() if value is not None}
    try:
        simulation = services.simulation_start(
            pack=pack, actor=request.user, address=client_address(request), **chosen
        )
    except ValidationError as exc:
        for message in exc.messages:
            messages.error(request, f"Simulation not started: {message}")
        return redirect(back)
    except TooManyRequests as exc:
        response = render(
            request,
            "packs/simulation_refused.html",
            {"pack": pack, "message": exc.message, "back": back},
            status=429,
        )
        response["Retry-After"] = str(exc.retry_after)
        return response
    return redirect("packs:simulation_detail", pack_id=pack.pk, simulation_id=simulation.pk)


def _length_summary(result: dict[str, Any]) -> dict[str, int] | None:
    lengths = sorted(
        (int(turns), int(games)) for turns, games in (result.get("game_lengths") or {}).items()
    )
    total = sum(games for _, games in lengths)
    if not total:
        return None
    middle, seen, median = (total + 1) // 2, 0, lengths[0][0]
    for turns, games in lengths:
        seen += games
        if seen >= middle:
            median = turns
            break
    return {"shortest": lengths[0][0], "median": median, "longest": lengths[-1][0]}


def _tables(simulation: PackSimulation) -> dict[str, Any]:
    result = simulation.result or {}
    wins = result.get("wins_by_seat") or {}
    finished = sum(int(n) for n in wins.values())
    seats: list[dict[str, Any]] = []
    for seat in range(1, simulation.players + 1):
        won = int(wins.get(str(seat), 0))
        share = round(100 * won / finished, 1) if finished else 0.0
        seats.append({"seat": seat, "wins": won, "share": share})
    monsters = sorted(
        (
            {
                "name": name,
                "fought": counts.get("fought", 0),
                "beaten": counts.get("beaten", 0),
                "rate": round(100 * counts.get("beaten", 0) / counts["fought"], 1)
                if counts.get("fought")
                else 0.0,
            }
            for name, counts in (result.get("monsters") or {}).items()
        ),
        key=lambda row: (-row["fought"], row["name"]),
    )
    per_turn = result.get("levels_per_turn") or {}
    turns = sum(per_turn.values())
    levels = [
        {
            "levels": f"{int(k):+d}",
            "turns": n,
            "share": round(100 * n / turns, 2) if turns else 0.0,
        }
        for k, n in sorted(per_turn.items(), key=lambda kv: int(kv[0]))
    ]
    return {
        "seats": seats,
        "monsters": monsters,
        "levels": levels,
        "lengths": _length_summary(result),
    }


def _plots(pack: Pack, simulation: PackSimulation) -> list[dict[str, Any]]:
    plots = []
    for plot in PLOTS:
        width, height = plot.size(simulation.result)
        plots.append(
            {
                "slug": plot.slug,
                "title": plot.title,
                "alt": plot.alt,
                "width": round(width * PIXELS_PER_INCH),
                "height": round(height * PIXELS_PER_INCH),
                "url": reverse(
                    "packs:simulation_plot",
                    kwargs={
                        "pack_id": pack.pk,
                        "simulation_id": simulation.pk,
                        "plot": plot.slug,
                    },
                ),
            }
        )
    return plots


@require_safe
def simulation_detail(request: HttpRequest, pack_id: int, simulation_id: int) -> HttpResponse:
    """The simulation's progress (the page reloads itself every 2 s until it has finished),
    then its statistics: the four plots and the numbers behind them."""
    pack = _pack(request, pack_id)
    simulation = _simulation(pack, simulation_id)
    if simulation.status in services.ACTIVE and services.simulation_expire_stalled():
        simulation.refresh_from_db()
    done = simulation.status == SimulationStatus.DONE
    finished = done or simulation.status == SimulationStatus.FAILED
    context: dict[str, Any] = {
        "pack": pack,
        "pack_url": _pack_url(pack),
        "simulation": simulation,
        "result": simulation.result if done else {},
        "refresh": not finished,
        "percent": round(100 * simulation.games_done / simulation.games) if simulation.games else 0,
        "plots": _plots(pack, simulation) if done else [],
    }
    if done:
        context.update(_tables(simulation))
    response = render(request, "packs/simulation_detail.html", context)
    if not finished:
        patch_cache_control(response, no_store=True)
    return response


@require_safe
@csp_override(PLOT_CSP)
def simulation_plot(
    request: HttpRequest, pack_id: int, simulation_id: int, plot: str
) -> HttpResponseBase:
    """One plot of a finished simulation as SVG (404 before it has finished). The same
    simulation always draws the same plot, so the response may be cached, and is revalidated
    by its ETag."""
    pack = _pack(request, pack_id)
    simulation = _simulation(pack, simulation_id)
    chosen = PLOTS_BY_SLUG.get(plot)
    if chosen is None:
        raise Http404(f"No plot {plot!r}")
    if simulation.status != SimulationStatus.DONE:
        raise Http404("The simulation has not finished")
    finished = simulation.finished_at.isoformat() if simulation.finished_at else ""
    key = f"{PLOTS_VERSION}:{simulation.pk}:{finished}:{plot}"
    etag = '"' + hashlib.sha256(key.encode()).hexdigest()[:32] + '"'
    cache = {"max_age": PLOT_MAX_AGE, "immutable": True}
    cache["private" if pack.owner_id is not None else "public"] = True
    conditional = get_conditional_response(request, etag=etag)
    if conditional is not None:
        patch_cache_control(conditional, **cache)
        return conditional
    response = HttpResponse(chosen.svg(simulation.result), content_type="image/svg+xml")
    response["ETag"] = etag
    patch_cache_control(response, **cache)
    return response
