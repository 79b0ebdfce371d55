"""Whole games: seeded, replayable, and the invariants are really checked."""

from typing import Any

from validator.engine.invariants import check_invariants
from validator.engine.scenario import CardLibrary
from validator.engine.setup import build_game
from validator.engine.simulation import simulate


def cards(library: CardLibrary) -> list[Any]:
    return list(library.cards())


def test_seeded_games_reach_a_winner_without_breaking_an_invariant(
    core_library: CardLibrary,
) -> None:
    stats = simulate(cards(core_library), players=4, games=25, seed=7)
    report = stats.as_json()
    assert report["invariant_violations"] == 0, report["violations"]
    assert report["games"] == 25
    assert sum(report["wins_by_seat"].values()) + report["unfinished_games"] == 25
    assert sum(report["wins_by_seat"].values()) >= 20
    assert report["mean_turns"] > 4
    assert any(m["beaten"] for m in report["monsters"].values())


def test_the_same_seed_gives_the_same_statistics(core_library: CardLibrary) -> None:
    first = simulate(cards(core_library), games=10, seed=3).as_json()
    second = simulate(cards(core_library), games=10, seed=3).as_json()
    other = simulate(cards(core_library), games=10, seed=4).as_json()
    for report in (first, second, other):
        report.pop("games_per_second")
    assert first == second
    assert first != other


def test_card_order_does_not_change_the_game(core_library: CardLibrary) -> None:
    forward = simulate(cards(core_library), games=3, seed=9).as_json()
    backward = simulate(list(reversed(cards(core_library))), games=3, seed=9).as_json()
    forward.pop("games_per_second")
    backward.pop("games_per_second")
    assert forward == backward


def test_the_invariants_catch_a_card_in_two_places(core_library: CardLibrary) -> None:
    game = build_game(cards(core_library), players=3, seed=1)
    assert check_invariants(game) == []
    game.players[0].hand.append(game.door_deck[0])
    assert any("is both in" in p for p in check_invariants(game))


def test_the_invariants_catch_broken_limits(core_library: CardLibrary) -> None:
    game = build_game(cards(core_library), players=3, seed=2)
    player = game.players[0]
    player.level = 10
    big = [c for c in game.treasure_deck if c.big][:2]
    for card in big:
        game.treasure_deck.remove(card)
        player.carried.append(card)
    problems = check_invariants(game)
    assert any("reached Level 10 without winning" in p for p in problems)
    assert any("Big items" in p for p in problems)


def test_every_card_is_dealt_and_counted(core_library: CardLibrary) -> None:
    game = build_game(cards(core_library), players=4, seed=5)
    assert game.total_cards == 168
    assert check_invariants(game) == []
    dealt = sum(len(p.hand) + len(list(p.in_play())) for p in game.players)
    assert dealt + len(game.door_discard) + len(game.treasure_discard) == 32


def test_role_cards_are_dealt_one_per_player() -> None:
    from validator.engine.scenario import library_from_set_files

    library = library_from_set_files(["munchkin-core", "munchkin-spongebob"])
    game = build_game(list(library.cards()), players=4, seed=1)
    roles = [[c.name for c in p.axis_cards("role")] for p in game.players]
    assert all(len(r) == 1 for r in roles) and len({r[0] for r in roles}) == 4
    assert not any(c.kind == "role" for c in game.door_deck + game.treasure_deck)
    assert check_invariants(game) == []
