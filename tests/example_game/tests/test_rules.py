"""Mudslide's own tests: its rules by scenario (stacked decks), and the proof that a game
is its package: it plays in the command line and the server, and no file outside this
package names it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spieltisch.bots.levels import DEFAULT_HARD_BUDGET, Level, bot_spec
from spieltisch.cli.main import app
from spieltisch.core import IllegalAction, Verdict, game_names, get_spec
from spieltisch.lab.profiles import profile_for
from spieltisch.replay import Replay
from spieltisch.testing import edited

from ..cards import CODES

PACKAGE = Path(__file__).resolve().parents[1]
ROOT = PACKAGE.parents[1]
#: The one file outside the package that may name it: the suite's registration.
REGISTRATION = ROOT / "conftest.py"

# A 3-player deck, top first: seat 0 gets 7C 7D 7H 7S 8C, seat 1 8D 8H 8S 9C 9D, seat 2
# 9H 9S 10C 10D 10H; 10S is turned up; the stock is the rest in id order (JC first).
DECK = ["7C", "7D", "7H", "7S", "8C", "8D", "8H", "8S", "9C", "9D",
        "9H", "9S", "10C", "10D", "10H", "10S"]


def new(**options):
    game = get_spec("mudslide").configure(3, {"first_player": 0, **options})
    return game, game.new_state(deck=DECK)


def act(state, seat, text):
    return state.apply(seat, state.game.action_from_json(text))


def hand(state, seat):
    return state.view(seat)["hand"]


def test_the_deal_and_the_pass_to_the_left():
    """§2, §3: five cards each, one turned up; all choose at once, then the cards move."""
    _, s = new()
    assert s.view(None)["top"] == "10S" and s.view(None)["stock"] == 16
    assert sorted(s.to_act()) == [0, 1, 2] and s.phase_name() == "give"
    act(s, 1, "give 8D")
    assert sorted(s.to_act()) == [0, 2]
    assert s.view(0)["chosen"] == [False, True, False] and s.view(0)["giving"] is None
    assert s.judge(1, s.game.action_from_json("give 8H")).reason == \
        "seat 1 has chosen a card already"
    act(s, 0, "give 8C")
    act(s, 2, "give 10H")
    assert s.phase_name() == "slide" and s.to_act() == [0]
    assert hand(s, 0) == ["7C", "7D", "7H", "7S", "10H"]  # 10H from seat 2, on its left
    assert hand(s, 1) == ["8C", "8H", "8S", "9C", "9D"]
    assert s.view(0)["passed"] == "8C"


def passed(state):
    for seat, card in ((0, "8C"), (1, "8D"), (2, "10H")):
        act(state, seat, f"give {card}")


def test_the_slide_plays_a_match_or_draws():
    """§4: rank or suit of the top card; otherwise draw; a wrong card is refused."""
    game, s = new()
    passed(s)
    assert [game.action_to_json(a) for a in s.legal_actions(0)] == ["play 7S", "play 10H",
                                                                     "draw"]
    with pytest.raises(IllegalAction, match="7♣ matches neither the rank nor the suit of 10♠"):
        act(s, 0, "play 7C")
    assert s.judge(1, game.action_from_json("draw")).reason == "it is seat 0's turn, not seat 1's"
    act(s, 0, "play 10H")
    events = act(s, 1, "draw")
    assert events[0].for_seat(1)["card"] == "JC" and "card" not in events[0].for_seat(0)
    assert s.to_act() == [2] and s.judge(2, game.action_from_json("pass")).verdict \
        is Verdict.ILLEGAL


def test_going_out_opens_the_last_call_and_the_game_ends():
    """§4–§6: the last card ends the slide; the others answer once, keeping a card."""
    game, s = new()
    passed(s)
    hands = [["10H"], ["10C", "8S"], ["10D"]]  # seat 0 holds one matching card
    held = {c for h in hands for c in h} | {"10S"}
    s = edited(s, seats=[{"hand": h, "giving": None, "passed": c}
                         for h, c in zip(hands, ("8C", "8D", "10H"), strict=True)],
               stock=[c for c in CODES if c not in held])
    events = act(s, 0, "play 10H")
    assert [e.kind for e in events] == ["play", "out", "last_call"]
    assert s.phase_name() == "last_call" and s.to_act() == [1]
    assert [game.action_to_json(a) for a in s.legal_actions(1)] == ["play 10C", "pass"]
    act(s, 1, "play 10C")
    assert [game.action_to_json(a) for a in s.legal_actions(2)] == ["pass"]  # keeps its one
    events = act(s, 2, "pass")
    assert s.is_over() and events[-1].kind == "game_over"
    assert s.result().scores == (0.0, -1.0, -1.0) and s.result().winner == 0


def test_what_the_package_leaves_out_gets_the_defaults():
    """No heuristic bot, observer, hard budget, search depth, rank rule or lab profile:
    the medium level plays random, the hard one the default budget, the lab asks the
    view."""
    game, _ = new()
    spec = game.spec
    assert game.bots() == {} and game.observer() is None
    assert bot_spec(game, Level.MEDIUM) == "random"
    assert bot_spec(game, Level.HARD).startswith(f"ismcts:{DEFAULT_HARD_BUDGET}:")
    assert (spec.hard_budget, spec.search_depth, spec.rank_keys, spec.lab_profile) == \
        (None, None, None, None)
    assert profile_for("mudslide").card_word == "card"


runner = CliRunner()


def test_the_command_line_lists_simulates_and_plays_it(tmp_path):
    assert "mudslide" in game_names()
    r = runner.invoke(app, ["--help"])
    assert r.exit_code == 0 and "Mudslide" in r.output
    r = runner.invoke(app, ["games"])
    assert r.exit_code == 0 and "mudslide" in r.output
    r = runner.invoke(app, ["simulate", "mudslide", "-n", "20", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["games"] == 20
    path = tmp_path / "game.json"
    # no --bots: the others play random (the game has no heuristic bot)
    r = runner.invoke(app, ["play", "mudslide", "--seed", "3", "--save", str(path)],
                      input="1\n" * 300)
    assert r.exit_code == 0, r.output
    rep = Replay.load(path)
    assert rep.seats == ["you", "random", "random"]
    assert rep.run().is_over()


def test_no_file_outside_the_package_names_it():
    """A game is its package: besides the suite's registration, no file of the
    repository names it."""
    tracked = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.split()
    outside = []
    for rel in tracked:
        path = ROOT / rel
        if path.is_relative_to(PACKAGE) or path == REGISTRATION or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        if "mudslide" in text.lower():
            outside.append(rel)
    assert outside == []
