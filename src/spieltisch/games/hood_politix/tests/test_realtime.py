"""The generic real-time runner on Hood Politix, on an injected clock."""

from __future__ import annotations

import io
from typing import cast

import pytest

from spieltisch import load_position
from spieltisch.bots import make_bot
from spieltisch.cli.realtime import RealtimeTable, play_realtime, uses_realtime
from spieltisch.cli.terminal import Table
from spieltisch.core import CLOCK, IllegalAction, Verdict, get_spec
from spieltisch.games.hood_politix import cards as C
from spieltisch.games.hood_politix.state import HoodPolitixState
from spieltisch.replay import Replay

from .test_scenarios import CC, A, B, act, new_table, position, size


class Clock:
    """The table's clock, moved only by the test: no test waits for real time."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


NAMES = ["Zoe", "Anna", "Ben", "Clara"]


def told(table: RealtimeTable, seat: int, text: str) -> list[str]:
    """What the table says when ``seat`` does ``text`` now: the narration of its events,
    as the human's seat sees them (worked out on a copy of the state)."""
    events = table.state.clone().apply(seat, table.game.action_from_json(text))
    return [table.table.event(e) for e in events]


def heuristic_bots(game, human: int | None, seed: int) -> list:
    return [None if s == human else make_bot(game, "heuristic", s, seed + 7919 * (s + 1))
            for s in range(game.num_players)]


def bots_game(seed: int) -> tuple[RealtimeTable, list[str], float]:
    """A 3-player, one-round game of bots that are often slow or forgetful, played on
    an injected clock that jumps to each moment something is due."""
    game = get_spec("hood_politix").configure(3, {"min_rounds": 1})
    lines: list[str]
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
    expired = [i for i, (seat, text) in enumerate(table.replay.actions)
               if seat == CLOCK and text == "expire move-timer"]
    assert expired  # slow bots: timeouts, told as the narrator tells them
    assert "The move timer has run out." in lines
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
    lines: list[str]
    clock, lines = Clock(), []
    table = RealtimeTable(game, 0, heuristic_bots(game, 0, 6), 6, lines.append, clock=clock,
                          names=NAMES)
    table.tick(0.0)
    st = table.state

    def typed(text: str) -> list[str]:
        """What the table says to one line typed now."""
        said = len(lines)
        assert table.handle_line(text)
        return lines[said:]

    politix = told(table, 0, "politix")
    assert politix == ["Zoe calls Politix: the game pauses until Zoe ends it."]
    assert typed("politix") == politix
    assert st.stats()["politix"] == 1 and table.replay.actions[-1] == (0, "politix")
    with pytest.raises(IllegalAction) as unreadable:
        game.action_from_json("play ZZ")
    assert typed("play ZZ") == [f"Not understood: {unreadable.value}"]
    resume = told(table, 0, "end politix")
    assert typed("end politix") == resume and len(resume) == 1
    clock.now = 1.0
    accuse = game.action_from_json("accuse 2 mic-drop")
    verdict = st.judge(0, accuse)
    assert verdict.verdict is Verdict.FAULTY  # seat 2 did nothing wrong: a false accusation
    penalty = told(table, 0, "accuse 2 mic-drop")
    said = typed("accuse 2 mic-drop")
    # the reason in words: the accused by name, the fault as the table says it
    assert said == ["Fault: Judas! Ben has not committed a missed Mic Drop", *penalty]
    assert len(penalty) == 2
    assert table.replay.actions[-1] == (0, "accuse 2 mic-drop")
    moves = len(table.replay.actions)
    assert "G1" not in st.view(0)["hand"]
    assert typed("play G1") == ["Not legal now: you do not hold Green 1"]  # nothing applied
    assert len(table.replay.actions) == moves
    examples = ", ".join(f"'{game.action_to_json(a)}'" for a in st.legal_actions(0)[:3])
    assert typed("help") == [
        f"Type the number of a choice or the action itself ({examples}) at any moment; "
        "'v' shows the table again, 'rules' how to play Hood Politix; 'quit' stops."]
    assert typed("v")[1] == table.table.board(st.view(0))
    assert typed("") == [] and not table.handle_line("quit")


def test_play_realtime_tells_the_deal_first_and_asks_where_to_save(tmp_path, monkeypatch):
    """The terminal loop reading lines: it greets the player by name and tells the first
    deal before anything else; "quit" stops at once, and the replay goes where the
    player answers the question at the end."""
    monkeypatch.chdir(tmp_path)
    game = get_spec("hood_politix").configure(4)
    lines: list[str] = []
    state = play_realtime(game, 0, "heuristic", 6, None, lines.append, player="Zoe",
                          stream=io.StringIO("quit\nmine.json\n"))
    assert not state.is_over()
    opening = game.new_state(seed=6).opening
    tell = Table(game, NAMES, "en", 0).event
    assert lines[0] == ("Hood Politix in real time — you are Zoe (seat 0); seed 6. Type at "
                        "any moment; 'help' for help.")
    assert lines[1:1 + len(opening)] == [tell(e) for e in opening]
    assert lines[1].startswith("Round 1: Zoe deals") and "Zoe gets " in lines[1]
    assert lines[-2:] == ["Stopped.", "Replay saved to mine.json"]
    assert Replay.load(tmp_path / "mine.json").run().move_number == state.move_number


def test_end_of_input_at_the_save_question_means_no(tmp_path, monkeypatch):
    """Ctrl-D (the end of input) at "Save the replay?" saves nothing, in German too."""
    monkeypatch.chdir(tmp_path)
    game = get_spec("hood_politix").configure(4)
    lines: list[str] = []
    play_realtime(game, 0, "heuristic", 6, None, lines.append, player="Zoe", lang="de",
                  stream=io.StringIO("quit\n"))
    assert lines[0].startswith("Hood Politix in Echtzeit — du bist Zoe (Platz 0)")
    assert lines[-1] == "Beendet." and list(tmp_path.iterdir()) == []


def test_the_move_timer_resumes_after_a_pause_with_the_time_it_had_left():
    """§5.3 on the terminal's injected clock: A plays at t=0; C throws in at t=2 (the
    timer restarts); A calls Politix at t=4; the pause ends at t=64; B's timer, frozen
    with 2 s run, runs out at t=65 (not 67); at t=65.5 C's timeout claim is valid."""
    start = new_table("G7", {A: ["G3"], CC: ["G3"]})
    now = [0.0]
    lines: list[str] = []
    table = RealtimeTable(start.game, None, [None] * 4, 1, lines.append,
                          clock=lambda: now[0], start=start)
    game, st = table.game, cast(HoodPolitixState, table.state)

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
    assert st.expired and lines[-1] == "The move timer has run out."
    accusation = told(table, CC, "accuse 1 timeout")
    at(65.5, CC, "accuse 1 timeout")
    assert lines[-len(accusation):] == accusation
    assert accusation[0] == "Clara accuses Ben of taking too long (3-second rule) — rightly."
    assert size(st, B) == 8 and size(st, CC) == 5 and st.to_act() == (B,)


def test_only_the_move_timer_is_a_move_timer():
    """The pauses (§5.5, §5.6) and the One-on-One's Mic Drop window (§9.7) end by
    themselves at every pace (``Deadline.fixed``, rules.md: an idle player cannot stall
    the game); the 3-second rule's timer is the one a pace may stretch or drop."""
    s = new_table("G7", {A: ["GDU", "G9"], B: ["PIY"]})
    (move,) = s.deadlines()
    assert move.action == C.EXPIRE_ID[C.T_MOVE] and not move.fixed
    act(s, A, "politix")
    assert [(d.action, d.seconds, d.fixed) for d in s.deadlines()] == \
        [(C.EXPIRE_ID[C.T_POLITIX], 60.0, True)]
    act(s, A, "end politix")
    act(s, A, "play GDU")
    act(s, B, "play PIY")
    act(s, CC, "accept")  # 7 cards: Respekt
    assert [(d.action, d.seconds, d.fixed) for d in s.deadlines()] == \
        [(C.EXPIRE_ID[C.T_RESPEKT], 30.0, True)]
    last = load_position(position("G7", {0: ["G3"], 1: ["Y1", "Y2"]}, exact=(0, 1),
                                  players=2))
    act(last, 0, "play G3")  # out without Mic Drop: the window opens
    assert [(d.action, d.fixed) for d in last.deadlines()] == [(C.EXPIRE_ID[C.T_MOVE], True)]
