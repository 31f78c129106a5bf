"""The generic real-time runner on Hood Politix, on an injected clock."""

from __future__ import annotations

import io

import pytest

from spieltisch.bots import make_bot
from spieltisch.cli.realtime import RealtimeTable, play_realtime, uses_realtime
from spieltisch.core import IllegalAction, Verdict, get_spec
from spieltisch.replay import Replay

from .test_scenarios import CC, A, B, new_table, size


class Clock:
    """The table's clock, moved only by the test: no test waits for real time."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def heuristic_bots(game, human: int | None, seed: int) -> list:
    return [None if s == human else make_bot(game, "heuristic", s, seed + 7919 * (s + 1))
            for s in range(game.num_players)]


def bots_game(seed: int) -> tuple[RealtimeTable, list[str], float]:
    """A 3-player, one-round game of bots that are often slow or forgetful, played on
    an injected clock that jumps to each moment something is due."""
    game = get_spec("hood_politix").configure(3, {"min_rounds": 1})
    clock, lines = Clock(), []
    table = RealtimeTable(game, None, heuristic_bots(game, None, seed), seed, lines.append,
                          mistake_rate=0.3, clock=clock)
    for _ in range(100_000):
        if table.state.is_over():
            break
        clock.now = table._next_wake(clock.now)
        table.tick(clock.now)
    assert table.state.is_over()
    return table, lines, clock.now


def test_bots_play_a_real_time_game_and_the_replay_verifies():
    assert uses_realtime(get_spec("hood_politix").configure(3))
    table, lines, end = bots_game(11)
    assert any(line.startswith("[clock] expire") for line in lines)  # slow bots: timeouts
    table.replay.result = table.state.result().to_json()
    Replay.from_json(table.replay.to_json()).verify()
    # on an injected clock the same seed gives the same game, to the same moment
    again, again_lines, again_end = bots_game(11)
    assert again.replay.actions == table.replay.actions and again_lines == lines
    assert again_end == end


def test_human_input_is_judged():
    """Each line the human types is judged against the state at that moment: legal
    actions are applied, faults applied with their penalty, unreadable text refused."""
    game = get_spec("hood_politix").configure(4)
    clock, lines = Clock(), []
    table = RealtimeTable(game, 0, heuristic_bots(game, 0, 6), 6, lines.append, clock=clock)
    table.tick(0.0)
    st = table.state

    def typed(text: str) -> list[str]:
        """What the table says to one line typed now."""
        said = len(lines)
        assert table.handle_line(text)
        return lines[said:]

    assert typed("politix") == ["[seat 0] politix"]
    assert st.stats()["politix"] == 1 and table.replay.actions[-1] == (0, "politix")
    with pytest.raises(IllegalAction) as unreadable:
        game.action_from_json("play ZZ")
    assert typed("play ZZ") == [f"Not understood: {unreadable.value}"]
    assert typed("end politix") == ["[seat 0] pause_end"]
    clock.now = 1.0
    accuse = game.action_from_json("accuse 2 mic-drop")
    verdict = st.check(0, accuse)
    assert verdict.verdict is Verdict.FAULTY  # seat 2 did nothing wrong: a false accusation
    said = typed("accuse 2 mic-drop")
    assert said[0] == f"FAULT: {verdict.reason}" and table.replay.actions[-1] == (
        0, "accuse 2 mic-drop")
    assert said[1].startswith("[seat 0] fault ") and said[2].startswith("[seat 0] draw count=2")
    moves = len(table.replay.actions)
    assert "G1" not in st.view(0)["hand"]
    assert typed("play G1") == ["Refused: you do not hold G1"]  # nothing is applied
    assert len(table.replay.actions) == moves
    assert typed("help") == ["Type an action's number or its text (e.g. 'play G7', "
                             "'throw G7', 'accuse 2 mic-check'); 'v' shows the table "
                             "again; 'quit' stops."]
    assert typed("v")[1] == game.render_view(st.view(0))
    assert typed("") == [] and not table.handle_line("quit")


def test_play_realtime_keeps_the_replay_when_the_human_quits(tmp_path, monkeypatch):
    """The terminal loop with its keyboard thread: "quit" stops at once, and the replay
    goes to the default file (there is no question at the end)."""
    monkeypatch.chdir(tmp_path)
    game = get_spec("hood_politix").configure(4)
    lines: list[str] = []
    state = play_realtime(game, 0, "heuristic", 6, None, lines.append,
                          stream=io.StringIO("quit\n"))
    assert not state.is_over()
    path = "spieltisch-hood_politix-6.json"
    assert lines[-2:] == ["Stopped.", f"Replay saved to {path}"]
    assert Replay.load(tmp_path / path).run().move_number == state.move_number


def test_the_move_timer_resumes_after_a_pause_with_the_time_it_had_left():
    """§5.3 on the terminal's injected clock: A plays at t=0; C throws in at t=2 (the
    timer restarts); A calls Politix at t=4; the pause ends at t=64; B's timer, frozen
    with 2 s run, runs out at t=65 (not 67); at t=65.5 C's timeout claim is valid."""
    start = new_table("G7", {A: ["G3"], CC: ["G3"]})
    now = [0.0]
    lines: list[str] = []
    table = RealtimeTable(start.game, None, [None] * 4, 1, lines.append,
                          clock=lambda: now[0], start=start)
    game, st = table.game, table.state

    def tick(t: float) -> None:  # the runner's loop at time t: a deadline, if one is due
        now[0] = t
        table.tick(t)

    def at(t: float, seat: int, text: str) -> None:
        tick(t)
        table.apply(seat, game.action_from_json(text))

    at(0.0, A, "play G3")
    at(2.0, CC, "throw G3")
    at(4.0, A, "politix")
    (key,) = table.timers.frozen
    assert table.timers.frozen == {key: 2.0} and key[2] == 2  # B's timer, since move 2
    for t in (30.0, 63.9):
        tick(t)
        assert st.pause and st.move_number == 3
    tick(64.0)  # the Politix pause ends by itself
    assert not st.pause and table.timers.started == {key: 62.0}
    tick(64.9)
    assert not st.expired
    tick(65.0)
    assert st.expired and lines[-1] == "[clock] expire timer=move-timer"
    at(65.5, CC, "accuse 1 timeout")
    assert "[seat 2] accuse accused=1 fault=timeout valid=True" in lines
    assert size(st, B) == 8 and size(st, CC) == 5 and st.to_act() == (B,)
