"""Hood Politix, configured: options, stacked decks and the action text forms (``play G7``,
``throw P4 mic``, ``accuse 2 mic-drop``); the rules are in ``state.py``."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Final

from ...core.cards import Shuffler
from ...core.game import ConfigError, Game, IllegalAction
from ...core.observation import Observer
from ...core.position import Fields
from ...i18n import N_
from . import cards as C
from .cards import (
    A_ACCEPT,
    A_ACCUSE,
    A_DRAW,
    A_END_POLITIX,
    A_EXPIRE,
    A_GIVE,
    A_MIC,
    A_PASS,
    A_PLAY,
    A_POLITIX,
    A_RELEASE,
    A_REVEAL,
    A_TAKE,
    A_THROW,
    AARG_T,
    ACCEPT,
    ACCUSE_ID,
    AFLAG_T,
    AKIND_T,
    ATYPE_T,
    DEAL,
    DRAW,
    END_POLITIX,
    EXPIRE_ID,
    F_MIC_CHECK,
    F_MIC_DROP,
    F_TIMEOUT,
    GIVE_ID,
    KIND_CODES,
    KIND_NAMES,
    KIND_TYPE,
    MIC,
    NUM_ACTIONS,
    NUM_CARDS,
    PASS,
    PLAY_ID,
    POLITIX,
    RELEASE,
    REVEAL_ID,
    SNITCH,
    TAKE_ID,
    THROW_ID,
    ActionType,
    first_of_kind,
)
from .state import HoodPolitixState

if TYPE_CHECKING:
    from ...core.scoresheet import Builder
    from ...core.words import Narrator


class HoodPolitixGame(Game):
    """Hood Politix configured: 2–8 players and the options of ``__init__.py``."""
    card_codes = C.CARD_CODES
    view_card_codes = C.KIND_CODES

    def __init__(self, num_players: int, options: dict[str, Any]) -> None:
        """Checks that the hands fit the deck (§1, §2.2) and the first dealer exists."""
        super().__init__(num_players, options)
        self.hand_size: int = options["hand_size"]
        self.min_rounds: int = options["min_rounds"]
        self.move_seconds: float = options["move_seconds"]
        self.respekt_seconds: float = options["respekt_seconds"]
        self.politix_seconds: float = options["politix_seconds"]
        self.politix_calls: int = options["politix_calls"]
        self.first_dealer: int = options["first_dealer"]
        if self.first_dealer >= num_players:
            raise ConfigError(f"option 'first_dealer' of hood_politix must be below the "
                              f"player count {num_players}, not {self.first_dealer}")
        if num_players * self.hand_size + 1 > NUM_CARDS:
            raise ConfigError("not enough cards for these hands")

    @property
    def num_actions(self) -> int:
        """The fixed action space (``cards.py``)."""
        return NUM_ACTIONS

    def _new_state(self, rng: random.Random, stacked: list[list[int]]) -> HoodPolitixState:
        """A new game, round 1 dealt (§2)."""
        return HoodPolitixState.deal_first(self, Shuffler(rng, stacked))

    def parse_deck(self, deck: Any) -> list[list[int]]:
        """Stacked orders may use kind codes (``G7`` twice means both copies) or physical
        codes (``G7a``, ``G7b``)."""
        if not isinstance(deck, (list, tuple)) or not deck:
            raise ConfigError("a stacked deck must be a non-empty list of card codes")
        orders = deck if isinstance(deck[0], (list, tuple)) else [deck]
        out = []
        for order in orders:
            used = 0
            ids = []
            for c in order:
                if isinstance(c, int):
                    card = c
                elif isinstance(c, str) and c.upper() in C.KIND_INDEX:
                    card = first_of_kind(C.ALL_CARDS & ~used, C.KIND_INDEX[c.upper()])
                    if card < 0:
                        raise ConfigError(f"stacked deck names {c} more often than it exists")
                elif isinstance(c, str):
                    card = self.card_id(c)
                else:
                    raise ConfigError("a stacked deck holds card codes such as 'G7' or 'Y50'")
                used |= 1 << card
                ids.append(card)
            out.append(ids)
        return out

    # -- action forms --------------------------------------------------------------
    def action_to_json(self, action: int) -> str:
        """The action's text form (``play G7 mic``, ``accuse 2 timeout``)."""
        if not 0 <= action < NUM_ACTIONS:
            raise IllegalAction(N_("action {action} is outside the action space"),
                                params={"action": action})
        typ, kind, arg, flag = ATYPE_T[action], AKIND_T[action], AARG_T[action], \
            AFLAG_T[action]
        if typ == A_PLAY or typ == A_THROW:
            text = ("play " if typ == A_PLAY else "throw ") + KIND_CODES[kind]
            if arg >= 0:
                text += f" {arg}"
            return text + (" mic" if flag else "")
        if typ in _SNITCH_VERBS:
            return _SNITCH_VERBS[typ] + " " + KIND_CODES[kind]
        if typ == A_ACCUSE:
            return f"accuse {arg} {C.FAULT_CODES[kind]}"
        if typ == A_EXPIRE:
            return "expire " + C.TIMER_CODES[arg]
        return _SIMPLE_TEXT[typ]

    def action_from_json(self, obj: Any) -> int:
        """The action a text names; ``IllegalAction`` (a translatable reason) if none."""
        if not isinstance(obj, str):
            raise IllegalAction(N_("an action is a string such as 'play G7', not {value}"),
                                params={"value": repr(obj)})
        words = obj.strip().lower().split()
        if not words:
            raise IllegalAction(N_("empty action"))
        text = " ".join(words)
        if text in _SIMPLE_ACTIONS:
            return _SIMPLE_ACTIONS[text]
        verb, args = words[0], words[1:]
        if verb == "exchange":
            raise IllegalAction(N_("the Snitch exchange is two actions: 'take PIY' (the card "
                                   "of theirs you take), then 'give G1' (yours in return)"))
        if verb in ("play", "throw", "reveal", "take", "give") and args:
            kind = _kind(args[0])
            if verb in _SNITCH_IDS and len(args) == 1:
                return _SNITCH_IDS[verb][kind]
            if verb in ("play", "throw"):
                rest = args[1:]
                flag = 0
                if rest and rest[-1] in _MIC_WORDS:
                    flag = 1
                    rest = rest[:-1]
                targeted = KIND_TYPE[kind] in (DEAL, SNITCH)
                if verb == "throw":  # any card may be tried; a wrong one is a fault
                    if rest:
                        raise _unexpected(rest)
                    return THROW_ID[kind][flag]
                if targeted:
                    if len(rest) != 1 or not rest[0].isdigit() or \
                            int(rest[0]) >= C.MAX_SEATS:
                        raise IllegalAction(
                            N_("a {card} names a target seat: 'play {code} 2'"),
                            params={"card": C.TYPE_NAMES[KIND_TYPE[kind]],
                                    "code": KIND_CODES[kind]})
                    return PLAY_ID[kind][int(rest[0]) + 1][flag]
                if rest:
                    raise _unexpected(rest)
                return PLAY_ID[kind][0][flag]
        if verb == "accuse" and len(args) == 2:
            if not args[0].isdigit() or int(args[0]) >= C.MAX_SEATS:
                raise IllegalAction(N_("accuse names a seat, not {value}"),
                                    params={"value": repr(args[0])})
            fault = _FAULT_WORDS.get(args[1])
            if fault is None:
                raise IllegalAction(N_("unknown fault {value} (mic-check, mic-drop or "
                                       "timeout)"), params={"value": repr(args[1])})
            return ACCUSE_ID[int(args[0])][fault]
        if verb in ("timeout", "claim") and len(args) == 1 and args[0].isdigit() \
                and int(args[0]) < C.MAX_SEATS:
            return ACCUSE_ID[int(args[0])][F_TIMEOUT]
        if verb == "expire" and len(args) == 1 and args[0] in C.TIMER_CODES:
            return EXPIRE_ID[C.TIMER_CODES.index(args[0])]
        raise IllegalAction(
            N_("not an action: {value} (try 'play G7', 'play GDL 2 mic', 'throw G7', 'draw', "
               "'accept', 'mic check', 'accuse 2 mic-drop', 'politix')"),
            params={"value": repr(obj)})

    def action_kind(self, action: int) -> ActionType:
        """The action's type (the ``actions`` of the phase table's rules)."""
        return ActionType(ATYPE_T[action])

    def describe_action(self, action: int) -> str:
        """The action in English words, for logs and menus without a narrator."""
        typ, kind, arg, flag = ATYPE_T[action], AKIND_T[action], AARG_T[action], \
            AFLAG_T[action]
        if typ == A_PLAY or typ == A_THROW:
            text = ("play " if typ == A_PLAY else "throw in ") + KIND_NAMES[kind]
            if arg >= 0:
                text += f" on seat {arg}"
            return text + (" — Mic!" if flag else "")
        if typ == A_REVEAL:
            return "reveal their " + KIND_NAMES[kind]
        if typ == A_TAKE:
            return f"take their {KIND_NAMES[kind]} (then give one of yours)"
        if typ == A_GIVE:
            return f"give your {KIND_NAMES[kind]} in exchange"
        if typ == A_ACCUSE:
            return f"accuse seat {arg}: {C.FAULT_NAMES[kind]}"
        if typ == A_EXPIRE:
            return f"time is up ({C.TIMER_CODES[arg]})"
        return _SIMPLE_DESCRIPTION[typ]

    def _state_from_position(self, fields: Fields, shuffler: Shuffler) -> HoodPolitixState:
        """The ``"state"`` object of a position (``position.py``)."""
        from .position import read

        return read(self, fields, shuffler)

    def score_sheet_builder(self) -> Builder:
        """The score sheet round by round (``scores.py``)."""
        from .scores import score_sheet  # (it imports this module)

        return score_sheet

    def narrator_class(self) -> type[Narrator]:
        """Hood Politix's words (``narration.py``): events, action labels, the board."""
        from .narration import Narrator  # (it imports this module)

        return Narrator

    def bots(self) -> dict[str, type]:
        """The game's own bots by name."""
        from .bot import HeuristicBot

        return {"heuristic": HeuristicBot}

    def observer_class(self) -> type[Observer]:
        """Hood Politix's own RL observation (``observation.py``)."""
        from .observation import HoodPolitixObserver  # (it imports this module)

        return HoodPolitixObserver


def _kind(word: str) -> int:
    """The kind a card code names (``G7``, ``PIY``); ``IllegalAction`` if none."""
    k = C.KIND_INDEX.get(word.upper())
    if k is None:
        raise IllegalAction(N_("unknown card {value} (cards look like G7, Y10, GDU, O50, "
                               "PIY, YPS, GDL, OSN)"), params={"value": repr(word)})
    return k


def _unexpected(words: list[str]) -> IllegalAction:
    """Words left over after a card that takes none."""
    return IllegalAction(N_("unexpected {value} after the card"),
                         params={"value": repr(" ".join(words))})


_SNITCH_VERBS: Final[dict[int, str]] = {A_REVEAL: "reveal", A_TAKE: "take", A_GIVE: "give"}
_SNITCH_IDS: Final = {"reveal": REVEAL_ID, "take": TAKE_ID, "give": GIVE_ID}
_SIMPLE_TEXT: Final[dict[int, str]] = {
    A_DRAW: "draw", A_ACCEPT: "accept", A_MIC: "mic check", A_POLITIX: "politix",
    A_END_POLITIX: "end politix", A_RELEASE: "release", A_PASS: "pass"}
_SIMPLE_DESCRIPTION: Final[dict[int, str]] = {
    A_DRAW: "draw a card", A_ACCEPT: "accept the penalty",
    A_MIC: "announce Mic Check!", A_POLITIX: "call Politix (pause)",
    A_END_POLITIX: "end the Politix pause", A_RELEASE: "release (Respekt)",
    A_PASS: "let the Mic Drop pass"}
_SIMPLE_ACTIONS: Final = {"draw": DRAW, "accept": ACCEPT, "mic check": MIC, "mic": MIC,
                          "miccheck": MIC, "politix": POLITIX, "end politix": END_POLITIX,
                          "release": RELEASE, "respekt": RELEASE, "pass": PASS}
_MIC_WORDS: Final = ("mic", "miccheck", "micdrop", "check", "drop", "!")
_FAULT_WORDS: Final = {"mic-check": F_MIC_CHECK, "miccheck": F_MIC_CHECK, "check": F_MIC_CHECK,
                       "mic-drop": F_MIC_DROP, "micdrop": F_MIC_DROP, "drop": F_MIC_DROP,
                       "timeout": F_TIMEOUT, "slow": F_TIMEOUT}


__all__ = ["HoodPolitixGame"]
