"""The end of a table's game: the length bound, the score sheet, the rematch and the replay."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .. import narration
from ..core.scoresheet import ScoreSheet, generic_sheet, history, sheet_of
from ..i18n import N_
from ..replay import Replay
from .conn import Conn, err
from .ratings import left_json
from .rematch import CLOSED, DECLINED, OPEN, STARTED, RematchOffer, rematch_token, rotated
from .texts import server_tr

if TYPE_CHECKING:
    from .table import TableRuntime

#: The status of a table stopped unfinished at its length bound (``length_bound``).
ABANDONED = "abandoned"
#: Statuses of a table whose game will not go on: it is served read-only.
ENDED = ("over", ABANDONED)

log = logging.getLogger("spieltisch.server")


class Ending:
    """The finished (or abandoned) game: its sheet, its rematch offer and its replay."""

    def __init__(self, rt: TableRuntime) -> None:
        self.rt = rt

    def abandoned_line(self, lang: str) -> dict[str, Any]:
        """Why an abandoned table stopped, in ``lang``: ``reason`` (``length_bound``),
        the ``actions`` it reached, the ``bound`` and the ``message`` its players read."""
        tr = server_tr(lang)
        # the bound that stopped it, as stored then (a server restarted with another
        # bound does not change it); a table stored without it: at most what it reached
        bound = self.rt.row.bound if self.rt.row.bound is not None \
            else min(self.rt.length_bound(), len(self.rt.log))
        return {"reason": "length_bound", "actions": len(self.rt.log), "bound": bound,
                "message": tr.format(N_("The game stopped unfinished after {actions} "
                                        "actions: this server plays at most {bound} at a "
                                        "table of {game}. It has no result."),
                                     actions=len(self.rt.log), bound=bound,
                                     game=self.rt.game.spec.title)}

    def _abandoned_log(self, abandoned: dict[str, Any]) -> dict[str, Any]:
        """The log line that ends an abandoned table's history."""
        return {"index": len(self.rt.log) - 1, "text": abandoned["message"]}

    async def _abandon(self) -> None:
        """The table reached its length bound unfinished: it stops, stored as
        ``abandoned`` without a result (no game's rules judge a game cut short; see each
        game's rules.md). Caller holds the lock; the update that follows says why."""
        self.rt.row.ended = time.time()
        self.rt.row.bound = self.rt.length_bound()
        try:
            await self.rt.store.call(self.rt.store.set_status, self.rt.row.id, ABANDONED, None,
                                  self.rt.row.setup_json())
        except Exception:  # the last action is stored: a restart marks it (``rebuild``)
            log.exception("table %s: storing its abandonment failed", self.rt.code)
        self.rt.row.status = ABANDONED
        log.warning("table %s (%s) abandoned at its length bound of %d actions",
                    self.rt.code, self.rt.row.game, len(self.rt.log))

    # -- the score sheet and the rematch -----------------------------------------------
    def score_sheet(self) -> ScoreSheet | None:
        """The finished game's score sheet (None before the end), from its events replayed
        once; a game whose sheet cannot be made gets the generic one (logged)."""
        st = self.rt.state
        if st is None or not st.is_over():
            return None
        if self.rt._sheet is None:
            try:
                actions = [(seat, self.rt.game.action_from_json(text))
                           for seat, text in self.rt.log]
                final, events = history(self.rt.row.first_state(self.rt.game), actions)
                self.rt._sheet = sheet_of(final, events, len(self.rt.log))
            except Exception:  # a game's bug must not take the end of the game away
                log.exception("table %s: the score sheet of %s failed", self.rt.code,
                              self.rt.game.name)
                self.rt._sheet = replace(generic_sheet(st), actions=len(self.rt.log))
        return self.rt._sheet

    def seconds_played(self) -> float | None:
        """From the start of the game to its end (None where not recorded)."""
        if self.rt.row.started is None or self.rt.row.ended is None:
            return None
        return max(0.0, self.rt.row.ended - self.rt.row.started)

    def sheet_json(self, ctx: narration.Context) -> dict[str, Any] | None:
        """The score sheet in the language of ``ctx``, with the game's length."""
        sheet = self.score_sheet()
        if sheet is None:
            return None
        # who left and when ("left in round 2", ``ratings``), under the sheet
        left = [f"{x['name']}: {x['text']}" for x in left_json(self.rt, ctx.tr.lang)]
        return sheet.to_json(ctx, self.seconds_played()) | ({"left": left} if left else {})

    def _open_offer(self) -> None:
        """The game ended: a table with people offers a rematch (bots accept at once) for
        ``rematch_seconds``, if a lobby can make one. Caller holds the lock."""
        people = tuple(s.seat for s in self.rt.human_seats())
        if not people or self.rt.on_rematch is None or self.rt.config.rematch_seconds <= 0:
            return
        bots = tuple(s.seat for s in self.rt.row.seats if s.kind == "bot")
        self.rt.offer = RematchOffer(people, bots)
        self.rt.offer.timer = asyncio.get_running_loop().call_later(
            self.rt.config.rematch_seconds, lambda: self.rt._spawn(self._offer_timed_out()))

    async def _offer_timed_out(self) -> None:
        await self.close_offer()

    async def close_offer(self) -> None:
        """Close an open rematch offer (its time ran out, or the server keeps too many)."""
        async with self.rt.lock:
            if self.rt.offer is not None and self.rt.offer.status == OPEN:
                self._close_offer(CLOSED)

    def _close_offer(self, status: str) -> None:
        """The offer ends (``status``): everyone is told, the lobby lets the table go.
        Caller holds the lock."""
        offer = self.rt.offer
        assert offer is not None
        offer.status = status
        offer.accepted = {s: "" for s in offer.accepted}  # the tokens are not needed now
        if offer.timer is not None:
            offer.timer.cancel()
            offer.timer = None
        self._notify_rematch()
        if self.rt.on_offer_closed is not None:
            self.rt.on_offer_closed(self.rt)

    def rematch_json(self, seat: int | None) -> dict[str, Any]:
        """The rematch as ``seat`` (None: a spectator) may know it: its state, who accepted
        and who has not answered; once it started its table's code and, for a person, the
        seat and token there (derived from the token the seat said ``hello`` with)."""
        offer = self.rt.offer
        if self.rt.row.rematch is not None and (offer is None or offer.status != STARTED):
            offer = RematchOffer((), (), status=STARTED, code=self.rt.row.rematch)
        if offer is None:
            offer = RematchOffer((), (), status=CLOSED)
        out = offer.json()
        token = self.rt._tokens.get(seat) if seat is not None else None
        if seat is not None and token is not None and offer.status == STARTED \
                and offer.code is not None:
            out["seat"] = rotated(seat, self.rt.row.players)
            out["token"] = rematch_token(token, offer.code)
        return out

    def _notify_rematch(self) -> None:
        """Every connection hears where the rematch stands (its own seat's token, once
        it started)."""
        for c in self.rt.conns:
            if c.bound:
                c.send({"type": "rematch", **self.rematch_json(c.seat)})

    async def answer_rematch(self, conn: Conn, msg: dict[str, Any]) -> dict[str, Any] | None:
        """A person's answer to the rematch offer (``accept``: true, the default, or
        false); an error for a request that changes nothing. The last acceptance makes
        the new table (``on_rematch``)."""
        tr = conn.tr
        accept = msg.get("accept", True)
        if not isinstance(accept, bool):
            return err("malformed", tr.gettext(N_("'accept' must be true or false.")))
        async with self.rt.lock:
            seat = conn.seat
            if seat is None:
                return err("not_a_seat", tr.gettext(N_("Spectators cannot answer a rematch.")))
            if self.rt.row.status != "over":
                return err("not_over", tr.gettext(
                    N_("A rematch is offered once the game is over.")))
            offer = self.rt.offer
            if self.rt.row.rematch is not None:
                return err("rematch_started", tr.format(
                    N_("The rematch has started already: table {table}."),
                    table=self.rt.row.rematch))
            if offer is not None and offer.status == DECLINED \
                    and offer.declined_by is not None:
                return err("rematch_declined", tr.format(
                    N_("{player} declined the rematch."),
                    player=self.rt.names(tr.lang)[offer.declined_by]))
            if offer is None or offer.status != OPEN:
                return err("rematch_closed", tr.gettext(N_("The rematch offer has closed.")))
            if not accept:
                offer.declined_by = seat
                self._close_offer(DECLINED)
                return None
            if seat in offer.accepted:
                return err("already_accepted", tr.gettext(
                    N_("You have accepted the rematch already.")))
            token = self.rt._tokens.get(seat)
            if token is None:  # every seat's connection said hello with its token
                return err("bad_token", tr.gettext(
                    N_("This token holds no seat at this table.")))
            offer.accepted[seat] = token
            if offer.waiting():
                self._notify_rematch()
                return None
            assert self.rt.on_rematch is not None
            try:
                code = await self.rt.on_rematch(self.rt, offer)
            except Exception:
                log.exception("table %s: starting the rematch failed", self.rt.code)
                del offer.accepted[seat]  # nothing changed: the person may try again
                self._notify_rematch()
                return err("unavailable", tr.gettext(N_(
                    "The rematch could not be set up just now; nothing changed. Try again "
                    "in a moment.")))
            self.rt.row.rematch = offer.code = code
            self._close_offer(STARTED)
            return None

    # -- replay ------------------------------------------------------------------------
    def replay(self) -> dict[str, Any]:
        row = self.rt.row
        names = [s.bot if s.kind == "bot" else (s.name or "human") for s in row.seats]
        rep = Replay(row.game, row.players, dict(row.options), row.seed, row.deck,
                     [str(n) for n in names], list(self.rt.log), row.result, row.position)
        return rep.to_json()


def abandoned_note(status: str, lang: str) -> dict[str, Any]:
    """``{"abandoned": why}`` in ``lang`` for a table stopped at its length bound (the
    lobby lists it so); nothing for any other."""
    if status != ABANDONED:
        return {}
    return {"abandoned": server_tr(lang).gettext(
        N_("stopped unfinished at this server's length limit"))}
