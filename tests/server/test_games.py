"""Whole games of every registered game over real WebSockets, with a secrecy check."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

from spieltisch.core import game_names, get_spec
from spieltisch.core.game import CLOCK, State
from spieltisch.replay import Replay
from spieltisch.server import ServerConfig

from .helpers import (
    Client,
    ServerThread,
    check_logs,
    create_table,
    join,
    play_scripted,
    tokens,
    unique_prefix,
)


def as_json(value: Any) -> Any:
    """``value`` as a client reads it (tuples become lists, keys strings)."""
    return json.loads(json.dumps(value))


def words(value: Any, out: set[str] | None = None) -> set[str]:
    """Every alphanumeric word in the string values (not the keys) of a JSON value: card
    codes, HOAX's identities."""
    out = set() if out is None else out
    if isinstance(value, str):
        out |= tokens(value)
    elif isinstance(value, dict):
        for v in value.values():
            words(v, out)
    elif isinstance(value, list | tuple):
        for v in value:
            words(v, out)
    return out


class Knowledge:
    """What one receiver (a seat, or ``None``: a spectator) may be told after each action
    of a finished game, worked out from its replay with the engine alone."""

    def __init__(self, replay: dict[str, Any], seat: int | None) -> None:
        game = get_spec(replay["game"]).configure(replay["players"], replay["options"])
        self.game, self.seat = game, seat
        self.actions = [(s, text) for s, text in replay["actions"]]
        state = game.new_state(seed=replay["seed"])
        self.after = [self._picture(state)]  # the picture after i actions
        self.events: list[Any] = []  # the events of action i as the receiver hears them
        self.told: list[set[str]] = []  # the words those events say
        for actor, text in self.actions:
            events = [e.for_seat(seat) for e in state.apply(actor, game.action_from_json(text))]
            self.events.append(as_json(events))
            self.told.append(words(self.events[-1]))
            self.after.append(self._picture(state))
        #: every word that was hidden from the receiver at some moment of the game
        self.ever_hidden = set().union(*(p["hidden"] for p in self.after))

    def _picture(self, state: State) -> dict[str, Any]:
        """The receiver's view, its options (as the server words them) and the words (card
        codes, identities) some other seat's view says but neither the public's nor its own."""
        seat, n = self.seat, self.game.num_players
        views = [words(state.view(s)) for s in range(n)]
        public = words(state.view(None))
        mine = views[seat] if seat is not None else set()
        others = set().union(*(views[s] for s in range(n) if s != seat))
        picture: dict[str, Any] = {"view": as_json(state.view(seat)), "over": state.is_over(),
                                   "hidden": others - public - mine}
        if state.is_over():
            picture["result"] = as_json(state.result().to_json())
        if seat is not None:
            required = seat in state.to_act() and not state.is_over()
            options = state.legal_actions(seat) if not state.is_over() and (
                required or seat in state.out_of_turn()) else []
            picture["required"] = required
            picture["legal"] = as_json([self.game.action_to_json(a) for a in options])
            # a refusal of one of them may name it as the engine describes it
            picture["options"] = words(picture["legal"]) | words(
                [self.game.describe_action(a) for a in options])
        return picture


#: Message fields checked on their own: the log (``check_logs``) and the labels of the
#: receiver's own legal actions (their keys are checked to be exactly those actions).
OWN_CHECKS = ("log", "labels")


def check_every_message(replay: dict[str, Any], seat: int | None,
                        messages: list[dict[str, Any]]) -> int:
    """Every message a receiver got against what it may know: a picture of the game (welcome,
    start, state, update) holds exactly the engine's view for it, its own options and the
    action's events as told to it; its other fields name nothing hidden from it at that
    moment (an update: hidden before and after its action and not told by it). Any other
    message (ack, error, seats) names nothing hidden from it that it was not shown before.
    Returns the number of messages checked."""
    know = Knowledge(replay, seat)
    shown: set[str] = set()  # words the receiver has been shown so far
    for msg in messages:
        kind = msg["type"]
        rest = {k: v for k, v in msg.items() if k not in OWN_CHECKS}
        if "view" in msg:
            assert kind in ("welcome", "start", "state", "update"), msg
            i = msg["index"] + (kind == "update")  # an update reports action ``index``
            picture = know.after[i]
            assert msg["view"] == picture["view"], (kind, i)
            assert msg["over"] == picture["over"] and msg.get("result") == picture.get("result")
            if seat is None:
                assert not {"legal", "required", "labels"} & msg.keys(), msg
            else:
                assert msg["legal"] == picture["legal"] and msg["required"] == picture["required"]
                assert sorted(msg["labels"]) == sorted(picture["legal"]), msg["labels"]
            hidden = picture["hidden"]
            if kind == "update":
                index = msg["index"]
                actor, text = know.actions[index]
                assert msg["events"] == know.events[index], index
                assert msg["seat"] == (None if actor == CLOCK else actor)
                assert msg.get("action") == (text if actor == seat and seat is not None
                                             else None), msg
                hidden = hidden & know.after[index]["hidden"] - know.told[index]
                shown |= know.told[index]
            else:
                assert msg["seat"] == seat
            for key in ("view", "legal", "events"):
                rest.pop(key, None)
            shown |= words(picture["view"]) | picture.get("options", set())
        else:  # ack, error, seats, the waiting table's welcome ...
            hidden = know.ever_hidden - shown
        leaked = tokens(rest) & hidden
        assert not leaked, f"{seat} was told {sorted(leaked)} in {msg}"
    return len(messages)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    db = tmp_path_factory.mktemp("db") / "games.sqlite3"
    cfg = ServerConfig(db_url=f"sqlite:///{db}", table_prefix=unique_prefix(),
                       time_scale=0.02, grace_seconds=1000, messages_per_second=1000,
                       message_burst=1000)
    with ServerThread(cfg) as s:
        yield s


@pytest.mark.parametrize("name", game_names())
def test_whole_game_two_humans_rest_bots(server: ServerThread, name: str) -> None:
    spec = get_spec(name)
    # bots at a real-time table move at a human pace (a whole game takes minutes there):
    # people only; elsewhere a third seat is a bot where the game allows one
    n = spec.min_players if spec.realtime or spec.max_players < 3 \
        else max(spec.min_players, 3)
    seats = ["human", "human"] + ["bot:medium"] * (n - 2)  # a client names levels only
    table = create_table(server.base, name, seats, players=n, seed=11)
    code = table["code"]
    assert table["status"] == "waiting"

    async def run() -> tuple[list[Client], Client]:
        j0 = join(server.base, code, "ann")
        c0 = await Client.open(server.ws_base, code, j0["token"])
        j1 = join(server.base, code, "bob")
        c1 = await Client.open(server.ws_base, code, j1["token"], lang="de")
        spectator = await Client.open(server.ws_base, code, None, lang="nl")
        finals = await asyncio.gather(play_scripted(c0, 1), play_scripted(c1, 2),
                                      play_scripted(spectator, 3, react_p=0))
        assert all(f["over"] for f in finals)
        assert finals[0]["result"] == finals[1]["result"] == finals[2]["result"]
        assert spectator.received and all(
            m.get("legal") is None for m in spectator.received)
        for c in (c0, c1, spectator):
            await c.close()
        return [c0, c1], spectator

    clients, spectator = asyncio.run(run())
    status = httpx.get(f"{server.base}/api/tables/{code}").json()
    assert status["status"] == "over"
    rep = httpx.get(f"{server.base}/api/tables/{code}/replay").json()
    state = Replay.from_json(rep).verify()
    assert state.is_over() and state.result().to_json() == status["result"]
    # every message to each player and to the spectator, against what each may know
    for seat, c in enumerate(clients):
        assert check_every_message(rep, seat, c.received) == len(c.received) > 0
    assert check_every_message(rep, None, spectator.received) == len(spectator.received) > 0
    # every log line is the narration of what that reader saw, in its language
    assert check_logs(rep, 0, clients[0].received, "en") > 0
    assert check_logs(rep, 1, clients[1].received, "de") > 0
    assert check_logs(rep, None, spectator.received, "nl") > 0
