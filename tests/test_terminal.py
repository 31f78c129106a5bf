"""Turn-based terminal play (``cli/terminal.py``) driven from a scripted keyboard: moves by
number, out-of-turn windows let pass, help, the rules, bad answers, quitting, the end of
a game and the save question."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

from spieltisch.bots.base import Observation
from spieltisch.cli import terminal
from spieltisch.core import IllegalAction, get_spec
from spieltisch.guides import guide_text
from spieltisch.replay import Replay

SAVE_QUESTION = "Save the replay? File name (Enter to skip): "
OUT_OF_TURN = "You may act out of turn (Enter to let it pass):"
YOUR_MOVE = "Your move:"


class Keyboard:
    """Stands in for ``input``: answers each question with ``answer(keyboard, prompt)``,
    knowing the observation the human is asked about (``obs``) and what the terminal
    printed since the previous question (``said``). An answer of ``None`` is Ctrl-D."""

    def __init__(self, screen: io.StringIO,
                 answer: Callable[[Keyboard, str], str | None]) -> None:
        self.screen, self.answer = screen, answer
        self.obs: Observation | None = None
        self.optional = False
        self.read = 0
        self.said = ""
        self.questions = {"optional": 0, "required": 0, "save": 0}
        self.calls = 0

    def __call__(self, prompt: str = "") -> str:
        self.calls += 1
        assert self.calls <= 2000, "the terminal keeps asking: it never took an answer"
        text = self.screen.getvalue()
        self.said, self.read = text[self.read:], len(text)
        if prompt == SAVE_QUESTION:
            self.questions["save"] += 1
        elif OUT_OF_TURN in self.said:
            self.questions["optional"] += 1
        elif YOUR_MOVE in self.said:
            self.questions["required"] += 1
        reply = self.answer(self, prompt)
        if reply is None:
            raise EOFError
        return reply


def play(monkeypatch: pytest.MonkeyPatch, name: str, seed: int,
         answer: Callable[[Keyboard, str], str | None], save: Path | None = None,
         players: int | None = None, lang: str = "en") -> tuple[str, Keyboard]:
    """Play ``name`` in seat 0 against random bots; the screen's text and the keyboard."""
    screen = io.StringIO()
    keyboard = Keyboard(screen, answer)
    ask = terminal.HumanBot._ask

    def watched(bot: terminal.HumanBot, obs: Observation, optional: bool) -> int | None:
        keyboard.obs, keyboard.optional = obs, optional
        return ask(bot, obs, optional)

    monkeypatch.setattr(terminal.HumanBot, "_ask", watched)
    monkeypatch.setattr("builtins.input", keyboard)
    game = get_spec(name).configure(players)
    console = Console(file=screen, width=200, color_system=None)
    terminal.play_terminal(game, 0, "random", seed, save, console, lang=lang)
    return screen.getvalue(), keyboard


def test_out_of_turn_windows_are_let_pass_and_moves_taken_by_number(monkeypatch, tmp_path):
    """HOAX asks the human out of turn (doubts); Enter lets each window pass, "1" takes the
    first choice; after 10 moves "quit", and the replay goes to the file named."""
    path = tmp_path / "hoax.json"

    def answer(kb: Keyboard, prompt: str) -> str | None:
        if prompt == SAVE_QUESTION:
            return str(path)
        if kb.optional:
            return ""
        return "1" if kb.questions["required"] <= 10 else "quit"

    screen, kb = play(monkeypatch, "hoax", 3, answer)
    assert kb.questions["optional"] > 0 and kb.questions["required"] == 11
    assert kb.questions["save"] == 1
    assert "Stopped." in screen and f"Replay saved to {path}" in screen
    rep = Replay.load(path)
    assert rep.seats[0] == "you" and rep.result is None
    # every move of seat 0 is the first of its choices, taken when it had to act
    state = rep.new_state()
    mine = 0
    for seat, text in rep.actions:
        action = state.game.action_from_json(text)
        if seat == 0:
            assert 0 in state.to_act() and action == state.legal_actions(0)[0]
            mine += 1
        state.apply(seat, action)
    assert mine == 10


def test_help_rules_and_bad_answers_ask_again(monkeypatch, tmp_path):
    """At the first move: Enter, help, the rules, choices out of range, unreadable and
    illegal actions each get their answer and the question again; then "1", then "q"."""
    script = iter(["", "help", "rules", "0", "99", "play ZZ", "ILLEGAL", "1", "q"])
    seen: dict[str, str] = {}

    def answer(kb: Keyboard, prompt: str) -> str | None:
        if prompt == SAVE_QUESTION:
            return str(tmp_path / "no" / "such" / "dir.json")
        reply = next(script)
        assert kb.obs is not None
        if reply == "ILLEGAL":  # an action the game can read but not allow now
            game, legal = kb.obs.game, kb.obs.legal_actions()
            action = next(a for a in range(game.num_actions) if a not in legal)
            reply = str(game.action_to_json(action))
            seen["illegal"] = kb.obs.judge(action).reason
        if reply == "help":
            seen["examples"] = ", ".join(f"'{kb.obs.game.action_to_json(a)}'"
                                         for a in kb.obs.legal_actions()[:3])
            seen["choices"] = str(len(kb.obs.legal_actions()))
        return reply

    screen, kb = play(monkeypatch, "president", 2, answer, players=4)
    with pytest.raises(IllegalAction) as unreadable:
        get_spec("president").configure(4).action_from_json("play ZZ")
    last = seen["choices"]
    expected = [
        "Choose a number or type an action ('help' for help).",
        f"Type the number of a choice, or the action itself ({seen['examples']}). 'rules' "
        "shows how to play President; 'quit' stops (you can save the replay).",
        guide_text("president", "en").strip().splitlines()[0],
        f"There is no choice 0: pick 1–{last}.",
        f"There is no choice 99: pick 1–{last}.",
        f"Not understood: {unreadable.value}",
        f"Not legal now: {seen['illegal']}",
    ]
    lines = screen.splitlines()
    at = [lines.index(x) for x in expected]
    assert at == sorted(at), "the answers came out of order"
    assert kb.questions["required"] == 2
    assert "Stopped." in screen
    where = tmp_path / "no" / "such" / "dir.json"
    assert f"Could not save the replay to {where}: No such file or directory" in screen
    assert not where.exists()


def test_a_finished_game_ends_with_the_standings(monkeypatch, tmp_path):
    """Played to the end: "Game over", then one line a player by place (the human is
    "You", the bot the first of the bots' names), then the save question."""
    path = tmp_path / "hockey.json"

    def answer(kb: Keyboard, prompt: str) -> str | None:
        return str(path) if prompt == SAVE_QUESTION else "1"

    screen, kb = play(monkeypatch, "hockey", 4, answer)
    assert "Stopped." not in screen and kb.questions["save"] == 1
    result = Replay.load(path).verify().result()
    names = ["You", "Anna"]
    order = sorted(range(2), key=lambda s: result.ranks[s])
    assert result.ranks in ((1, 2), (2, 1))
    lines = screen.splitlines()
    assert lines[-3:] == [f"{result.ranks[s]}. {names[s]}: {result.scores[s]:g} points"
                          for s in order] + [f"Replay saved to {path}"]
    assert any("Game over" in line for line in lines[:-3])


@pytest.mark.parametrize("stop,said", [(EOFError, "Stopped."), (KeyboardInterrupt, "Interrupted.")])
def test_end_of_input_and_ctrl_c_stop_the_game(monkeypatch, tmp_path, stop, said):
    """Ctrl-D at a move stops the game as "quit" does; Ctrl-C interrupts it; either way
    the save question follows, and Ctrl-D there saves nothing."""
    monkeypatch.chdir(tmp_path)

    def answer(kb: Keyboard, prompt: str) -> str | None:
        if prompt == SAVE_QUESTION:
            return None
        if stop is KeyboardInterrupt:
            raise KeyboardInterrupt
        return None

    screen, kb = play(monkeypatch, "hockey", 1, answer)
    assert said in screen and kb.questions == {"optional": 0, "required": 1, "save": 1}
    assert list(tmp_path.iterdir()) == []


def test_bad_answers_in_german(monkeypatch, tmp_path):
    """Issue 34, item 6: a parse error and a refusal in the chosen language, the card by
    the table's symbol, nothing of the engine's English (``--lang de``)."""
    script = iter(["xyz", "ILLEGAL", "q"])

    def answer(kb: Keyboard, prompt: str) -> str | None:
        if prompt.startswith("Replay") or "Datei" in prompt or prompt == SAVE_QUESTION:
            return ""
        reply = next(script)
        if reply == "ILLEGAL":
            assert kb.obs is not None
            legal = kb.obs.legal_actions()
            reply = str(kb.obs.game.action_to_json(next(a for a in range(52)
                                                        if a not in legal)))
        return reply

    text, _ = play(monkeypatch, "hockey", 1, answer, players=2, lang="de")
    assert "Nicht verstanden: unbekannte Karte 'xyz' (Karten schreibt man so: 10H, JS, AC)" \
        in text
    refused = next(line for line in text.splitlines() if line.startswith("Jetzt nicht"))
    assert refused.endswith(" ist nicht auf deiner Hand") or " ist am Zug, nicht " in refused
    assert "unknown" not in text and "not in your hand" not in text, refused
