"""The plots of a pack simulation, drawn on the server as SVG with matplotlib.

Each plot reads a stored simulation result (`PackSimulation.result`: the engine's
`Stats.as_json()` and a few facts of the run) and nothing else. The SVG is deterministic for
the same data (fixed hash salt for its ids, no date in its metadata), holds no script, and
draws its text as SVG text (so it is searchable and small); card names are never read as
mathtext. matplotlib is imported on first use: a process that never draws a plot never pays
for it.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.typing import RcKeyType

# Bump when the drawing changes, so cached plots are drawn again.
PLOTS_VERSION = 1
TOP_MONSTERS = 25

INK = "#1f1a14"
MUTED = "#5f564a"
ACCENT = "#7a2e12"
GOLD = "#b8860b"
GAIN = "#1d6b2f"
LOSS = "#8b1e1e"
GRID = "#d9ccb6"

_RC: dict[RcKeyType, Any] = {
    "svg.hashsalt": "cardsite-simulation-plots",
    "svg.fonttype": "none",
    "text.parse_math": False,
    "text.usetex": False,
    "font.family": "sans-serif",
    "font.size": 10,
    "axes.edgecolor": MUTED,
    "axes.labelcolor": INK,
    "axes.titleweight": "bold",
    "axes.spines.top": False,
    "axes.spines.right": False,
    "xtick.color": MUTED,
    "ytick.color": MUTED,
    "figure.facecolor": "white",
    "axes.facecolor": "white",
}
# matplotlib's global state (rcParams, font cache) is not thread-safe: one drawing at a time.
_drawing = threading.Lock()

Drawer = Callable[["Axes", dict[str, Any]], None]


@dataclass(frozen=True)
class Plot:
    """One plot: its address (`slug`), the title drawn on it, the alternative text of its
    image, the figure's size in inches (width, height) and how it draws a result."""

    slug: str
    title: str
    alt: str
    draw: Drawer
    size: Callable[[dict[str, Any]], tuple[float, float]] = lambda result: (7.0, 3.6)

    def svg(self, result: dict[str, Any]) -> bytes:
        """The plot of `result` as an SVG document (UTF-8)."""
        # matplotlib takes most of a second to import: only the process that draws pays it.
        from matplotlib import rc_context
        from matplotlib.backends.backend_svg import FigureCanvasSVG
        from matplotlib.figure import Figure

        buffer = io.BytesIO()
        with _drawing, rc_context(_RC):
            figure = Figure(figsize=self.size(result), layout="constrained")
            FigureCanvasSVG(figure)
            axes = figure.add_subplot()
            axes.set_title(self.title, loc="left", color=INK)
            self.draw(axes, result)
            figure.savefig(
                buffer,
                format="svg",
                metadata={"Date": None, "Title": self.title, "Description": self.alt},
            )
        return buffer.getvalue()


def _ints(mapping: Any) -> dict[int, int]:
    """A stored histogram ({"3": 12}) with whole-number keys, in order; junk left out."""
    if not isinstance(mapping, dict):
        return {}
    out: dict[int, int] = {}
    for key, value in mapping.items():
        try:
            out[int(key)] = int(value)
        except (TypeError, ValueError):
            continue
    return dict(sorted(out.items()))


def _nothing(axes: Axes, message: str) -> None:
    axes.set_axis_off()
    axes.text(0.5, 0.5, message, ha="center", va="center", color=MUTED, transform=axes.transAxes)


def _draw_game_lengths(axes: Axes, result: dict[str, Any]) -> None:
    lengths = _ints(result.get("game_lengths"))
    if not lengths:
        _nothing(axes, "No game lengths recorded")
        return
    turns, games = list(lengths), list(lengths.values())
    span = turns[-1] - turns[0] + 1
    bins = span if span <= 40 else 30
    axes.hist(
        turns,
        bins=bins,
        range=(turns[0] - 0.5, turns[-1] + 0.5),
        weights=games,
        color=ACCENT,
        edgecolor="white",
        linewidth=0.5,
    )
    total = sum(games)
    mean = sum(t * n for t, n in lengths.items()) / total
    axes.axvline(mean, color=GOLD, linestyle="--", linewidth=1.5, label=f"mean {mean:.1f} turns")
    axes.legend(frameon=False, labelcolor=INK, loc="lower right", bbox_to_anchor=(1, 1))
    axes.set_xlabel("Turns per game (each player's turn counts one)")
    axes.set_ylabel("Games")
    axes.grid(axis="y", color=GRID, linewidth=0.5)
    axes.set_axisbelow(True)


def _draw_wins_by_seat(axes: Axes, result: dict[str, Any]) -> None:
    wins = _ints(result.get("wins_by_seat"))
    players = int(result.get("players") or 0) or max(wins, default=0)
    if players < 1:
        _nothing(axes, "No games finished")
        return
    seats = list(range(1, players + 1))
    counts = [wins.get(seat, 0) for seat in seats]
    finished = sum(counts)
    bars = axes.bar([str(seat) for seat in seats], counts, color=ACCENT, width=0.6)
    labels = [f"{n}\n{n / finished:.0%}" if n else "" for n in counts]
    axes.bar_label(bars, labels=labels, label_type="center", color="white")
    if finished:
        fair = finished / players
        axes.axhline(fair, color=GOLD, linestyle="--", linewidth=1.5, label="an even share")
        axes.legend(frameon=False, labelcolor=INK, loc="lower right", bbox_to_anchor=(1, 1))
    unfinished = int(result.get("unfinished_games") or 0)
    note = f"; {unfinished} unfinished" if unfinished else ""
    axes.set_xlabel(f"Seat (seat 1 plays first){note}")
    axes.set_ylabel("Games won")
    axes.set_ylim(0, max([*counts, 1]) * 1.18)
    axes.grid(axis="y", color=GRID, linewidth=0.5)
    axes.set_axisbelow(True)


def _top_monsters(result: dict[str, Any]) -> list[tuple[str, int, int]]:
    monsters = result.get("monsters")
    if not isinstance(monsters, dict):
        return []
    rows = [
        (str(name), int(counts.get("fought", 0)), int(counts.get("beaten", 0)))
        for name, counts in monsters.items()
        if isinstance(counts, dict) and int(counts.get("fought", 0)) > 0
    ]
    rows.sort(key=lambda row: (-row[1], row[0]))
    return rows[:TOP_MONSTERS]


def _monsters_size(result: dict[str, Any]) -> tuple[float, float]:
    return (7.5, 1.4 + 0.27 * max(3, len(_top_monsters(result))))


def _draw_monsters(axes: Axes, result: dict[str, Any]) -> None:
    rows = _top_monsters(result)
    if not rows:
        _nothing(axes, "No monsters fought")
        return
    rows.reverse()  # barh draws bottom-up: the most fought on top
    names = [f"{name} ({fought})" for name, fought, _ in rows]
    rates = [100 * beaten / fought for _, fought, beaten in rows]
    positions = list(range(len(rows)))
    bars = axes.barh(positions, rates, color=ACCENT, height=0.65)
    axes.set_yticks(positions, names)
    axes.bar_label(bars, labels=[f"{rate:.0f}%" for rate in rates], padding=3, color=INK)
    axes.set_xlim(0, 112)
    axes.set_xticks([0, 25, 50, 75, 100], ["0%", "25%", "50%", "75%", "100%"])
    axes.set_xlabel("Share of fights the players won (times fought in brackets)")
    axes.grid(axis="x", color=GRID, linewidth=0.5)
    axes.set_axisbelow(True)


def _draw_levels_per_turn(axes: Axes, result: dict[str, Any]) -> None:
    per_turn = _ints(result.get("levels_per_turn"))
    total = sum(per_turn.values())
    if not total:
        _nothing(axes, "No turns recorded")
        return
    levels = list(per_turn)
    shares = [100 * n / total for n in per_turn.values()]
    colours = [GAIN if level > 0 else LOSS if level < 0 else MUTED for level in levels]
    bars = axes.bar([f"{level:+d}" for level in levels], shares, color=colours, width=0.7)
    labels = [f"{share:.1f}%" if share >= 0.05 else "<0.1%" for share in shares]
    axes.bar_label(bars, labels=labels, padding=2, color=INK, fontsize=8)
    mean = sum(level * n for level, n in per_turn.items()) / total
    axes.set_xlabel(f"Levels the player gained in their turn (mean {mean:+.2f} a turn)")
    axes.set_ylabel("Share of turns")
    axes.set_ylim(0, max(shares) * 1.18)
    axes.yaxis.set_major_formatter("{x:.0f}%")
    axes.grid(axis="y", color=GRID, linewidth=0.5)
    axes.set_axisbelow(True)


PLOTS: tuple[Plot, ...] = (
    Plot(
        "game-lengths",
        "Game length",
        "Histogram of how many turns the games lasted",
        _draw_game_lengths,
    ),
    Plot(
        "wins-by-seat",
        "Wins by seat",
        "Bar chart of the games won from each seat, against an even share",
        _draw_wins_by_seat,
    ),
    Plot(
        "monsters-beaten",
        f"Monsters beaten (the {TOP_MONSTERS} most fought)",
        f"Horizontal bars: how often the players beat each of the {TOP_MONSTERS} most fought "
        "monsters",
        _draw_monsters,
        _monsters_size,
    ),
    Plot(
        "levels-per-turn",
        "Levels gained per turn",
        "Bar chart of the share of turns by the levels their player gained in them",
        _draw_levels_per_turn,
    ),
)
PLOTS_BY_SLUG: dict[str, Plot] = {plot.slug: plot for plot in PLOTS}
