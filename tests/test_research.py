"""Small research configurations (``spieltisch.openspiel.research``): OpenSpiel's random
simulation test, one chance node per deal with exact probabilities, a perfect-recall
information-state tensor, a short CFR+ run to a known exploitability, and a clear refusal
for games without a configuration."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="needs the openspiel extra: pip install -e '.[openspiel]'")

from open_spiel.python.algorithms import cfr, exploitability, get_all_states  # noqa: E402

import spieltisch.openspiel  # noqa: E402,F401
from spieltisch.core import game_names  # noqa: E402
from spieltisch.openspiel.research import config_of, research_games  # noqa: E402


def hockey(deck: int = 6, hand: int = 2) -> pyspiel.Game:
    return pyspiel.load_game("spieltisch_hockey",
                             {"research": True, "research_deck": deck, "research_hand": hand})


def pixmit(deck: int = 4) -> pyspiel.Game:
    return pyspiel.load_game("spieltisch_pixmit", {"research": True, "research_deck": deck})


@pytest.mark.parametrize("deck,hand", [(6, 2), (7, 3), (4, 1)])
def test_random_sim_test_on_hockey_research(deck, hand):
    pyspiel.random_sim_test(hockey(deck, hand), num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("deck", [4, 6])
def test_random_sim_test_on_pixmit_research(deck):
    pyspiel.random_sim_test(pixmit(deck), num_sims=3, serialize=True, verbose=False)


def test_pixmit_research_plays_two_seats_in_beginner_mode():
    game = pixmit()
    assert game.num_players() == 2 and game.engine_game.options["mode"] == "beginner"
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert not game.get_type().provides_information_state_tensor  # 60,000 floats: not offered
    state = game.new_initial_state()
    # cards 07 10 04 06, two each: the deal first (6 ways, 4 orders each), then the start
    assert state.chance_outcomes() == [(i, pytest.approx(1 / 6)) for i in range(6)]
    state.apply_action(0)
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    with pytest.raises(ValueError, match="plays players=2, not 3"):
        pyspiel.load_game("spieltisch_pixmit", {"research": True, "players": 3})


def test_hockey_research_tree():
    """Deck JC JD QC QD KC KD, two cards each: a seat node for the first dealer, then one
    node of the 15 · 6 = 90 ways to deal the hands, each of the 720 orders counted."""
    game = hockey()
    assert game.max_chance_outcomes() == 90
    assert game.get_type().provides_information_state_tensor
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    state.apply_action(1)
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(90))
    assert all(p == pytest.approx(1 / 90) for _, p in outcomes)  # 8 orders each
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 0) == "deal JC JD QC QD KC KD"
    state.apply_action(0)
    # period 1 dealt by seat 1: seat 0 (the non-dealer) got the first and third card
    assert state.game_state.view(0)["hand"] == ["JC", "QC"]
    assert state.current_player() == 0
    states = get_all_states.get_all_states(game, include_terminals=True,
                                           include_chance_states=True)
    assert len(states) == 2703
    finals = {tuple(s.returns()) for s in states.values() if s.is_terminal()}
    assert finals == {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)}  # equal goals: a draw


def test_information_state_tensor_is_the_information_state():
    """Equal tensors exactly when the information strings are equal (perfect recall; the
    seat's own plays need no slots of their own: the pile shows them)."""
    game = hockey()
    states = get_all_states.get_all_states(game, include_terminals=False,
                                           include_chance_states=False)
    by_string: dict[str, bytes] = {}
    by_tensor: dict[bytes, str] = {}
    for state in states.values():
        seat = state.current_player()
        text = state.information_state_string(seat)
        tensor = np.asarray(state.information_state_tensor(seat), np.float32).tobytes()
        assert by_string.setdefault(text, tensor) == tensor
        assert by_tensor.setdefault(tensor, text) == text
    assert len(by_string) == 1110
    assert len(np.asarray(state.information_state_tensor(0))) == \
        game.information_state_tensor_size()


def test_cfr_plus_reaches_its_threshold_on_hockey_research():
    """Deck JC JD QC QD KC, two cards each (one card unseen): 440 information states;
    CFR+ is deterministic, 0.002788 after 10 iterations."""
    game = hockey(5, 2)
    solver = cfr.CFRPlusSolver(game)
    assert len(solver.current_policy().state_lookup) == 440
    for _ in range(10):
        solver.evaluate_and_update_policy()
    assert exploitability.exploitability(game, solver.average_policy()) < 0.003


@pytest.mark.heavy  # CFR+ walks 6,384 information states twice: minutes under coverage
def test_cfr_plus_reaches_its_threshold_on_pixmit_research():
    """Cards 07 10 04 06: 6,384 information states; CFR+ is deterministic: exploitability
    1/2 after one iteration, 1/6 after two (examples/research_cfr.py goes on to 0.001)."""
    game = pixmit()
    solver = cfr.CFRPlusSolver(game)
    assert len(solver.current_policy().state_lookup) == 6384
    for _ in range(2):
        solver.evaluate_and_update_policy()
    assert exploitability.exploitability(game, solver.average_policy()) < 0.17


def test_the_games_with_a_research_configuration_are_those_whose_package_has_one():
    assert research_games() == ["hockey", "pixmit"]
    assert config_of("no_such_game") is None  # a spec the registry does not hold


@pytest.mark.parametrize("name", ["hockey", "pixmit"])
def test_a_games_configuration_imports_first_and_without_openspiel(name):
    """The package's ``research.py`` imported before anything else: no import cycle
    through the adapter, and no OpenSpiel loaded."""
    code = (f"import sys; import spieltisch.games.{name}.research as r; "
            "print(sorted(r.RESEARCH.sizes), 'pyspiel' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split("\n")[0]
    assert out == {"hockey": "['research_deck', 'research_hand'] False",
                   "pixmit": "['research_deck'] False"}[name]


@pytest.mark.parametrize("name", sorted(set(game_names()) - set(research_games())))
def test_research_is_refused_where_there_is_none(name):
    with pytest.raises(ValueError, match="has no research configuration .research=True is "
                                         "offered for: spieltisch_hockey, spieltisch_pixmit"):
        pyspiel.load_game(f"spieltisch_{name}(research=True)")


def test_sizes_alone_leave_the_real_game():
    game = pyspiel.load_game("spieltisch_hockey(research_deck=6)")
    assert not game.get_type().provides_information_state_tensor
    assert game.max_chance_outcomes() == 52


def test_sizes_out_of_range_are_refused():
    from spieltisch.core.game import ConfigError

    with pytest.raises(ConfigError, match="needs a deck of 4..16 cards, not 3"):
        hockey(3, 2)
    with pytest.raises(ConfigError, match="research_deck of pixmit must be 4..6, not 8"):
        pixmit(8)
