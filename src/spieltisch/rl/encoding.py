"""A generic, fixed-size numeric encoding of any game's per-seat JSON view.

No game-specific code: the layout is *discovered* from the views themselves. For a
configured game (name, player count, rule options) we play a few seeded random
games, collect the views every seat sees along the way, and derive a schema from
their union:

* ``bool`` → one slot (0/1); ``int``/``float`` → one slot, divided by the largest
  magnitude seen during discovery (so most values land in [-1, 1]);
* a string → one-hot over the strings (whitespace-separated tokens for texts such
  as ``"accuse 0 farmer"``) met at that place, plus an "other" slot; when any of
  them is a card code, every code of ``game.view_card_codes`` (by default
  ``game.card_codes``) gets a slot;
* a list of strings (a hand, a pile, covered roles) → counts over that vocabulary
  (multi-hot; order is dropped, duplicates counted);
* a list of small non-negative ints of varying length (seats that passed) →
  counts over ``0..max`` (a set of seats);
* a list of fixed length (one entry per seat) → one sub-layout per position;
* any other list of varying length (a log) → its length plus the last
  ``TAIL`` entries, most recent first; at the top level of the view every position
  shares one sub-layout, so an appended entry shifts the others by a slice copy;
* a dict → one sub-layout per key ever seen; a key or value that was sometimes
  missing or ``null`` gets a "present" slot.

At run time, unseen keys are ignored, unseen strings go to "other" and lists are
truncated: the encoding never fails and its size never changes. The discovery is
deterministic (fixed seeds), so a configuration always gets the same layout.
"""

from __future__ import annotations

import itertools
import operator
import random
from array import array
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from ..core.game import Game, State
from ..core.observation import Observer

#: Entries kept from the end of a variable-length list of structured items (logs).
TAIL = 8
#: Bound used for numeric slots in the observation space (values are scaled, so far below).
BIG = 1e6
#: A list of ints whose values stay below this (and vary in length) is encoded as a set.
SMALL_INT = 64
#: The observation's dtype as an instance: ``np.frombuffer(D, F32)`` with a dtype instance
#: passed positionally takes half the time of ``dtype=np.float32`` (a per-step cost).
F32 = np.dtype(np.float32)

# The generated encoder writes straight into ``D``, an ``array("f")`` holding the
# observation (no per-call lists or numpy conversions): one-hot and set slots are set to
# 1, slots of lists that may repeat an element are counted (``+= 1``), numbers are
# stored scaled. Distinct leaves never share a slot, and one leaf writes either set or
# counted slots, so the order of the writes does not matter.


class _Layout:
    def __init__(self) -> None:
        self.size = 0
        self.numeric: list[int] = []  # slots holding scaled numbers (may be negative)
        self.labels: list[str] = []

    def take(self, label: str, numeric: bool = False) -> int:
        slot = self.size
        self.size += 1
        self.labels.append(label)
        if numeric:
            self.numeric.append(slot)
        return slot


def _is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _is_scalar(v: Any) -> bool:
    return not isinstance(v, (dict, list))


def _tokens(s: str) -> list[str]:
    return s.split() if " " in s else [s]


def _tok(s: Any, vocab: dict[str, int], other: int, D: array, b: int = 0) -> None:
    """A string not in the vocabulary: count its words (or "other") into ``D``
    (``b``: the offset of the position written, in a log)."""
    if isinstance(s, str) and " " in s:
        get = vocab.get
        for t in s.split():
            D[b + get(t, other)] += 1.0
    else:
        D[b + other] += 1.0


class _Gen:
    """Emits the source of one encoding function from sample values."""

    def __init__(self, enc: ViewEncoder, layout: _Layout, checked: bool) -> None:
        self.enc = enc
        self.L = layout
        #: False: monomorphic places skip type checks (fast path, falls back on errors).
        self.checked = checked
        self.consts: dict[str, Any] = {"_tok": _tok, "repeat": itertools.repeat}
        self.lines: list[str] = []
        self.var = 0
        #: prefix of every slot index written: "b + " in a log entry's function, whose
        #: slots are those of the newest position and ``b`` moves them to another one
        self.off = ""
        self.tok_b = ""

    def const(self, value: Any) -> str:
        name = f"K{len(self.consts)}"
        self.consts[name] = value
        return name

    def fresh(self) -> str:
        self.var += 1
        return f"x{self.var}"

    def emit(self, depth: int, line: str) -> None:
        self.lines.append("    " * depth + line)

    def vocab(self, strings: list[str], label: str) -> tuple[str, int]:
        codes = self.enc._codes
        toks: set[str] = set()
        for s in strings:
            toks.update(_tokens(s))
        if toks & codes:
            ordered = list(dict.fromkeys(self.enc.card_codes)) + sorted(toks - codes)
        else:
            ordered = sorted(toks)
        vocab = {t: self.L.take(f"{label}={t}") for t in ordered}
        other = self.L.take(f"{label}=?")
        return self.const(vocab), other

    def node(self, label: str, values: list[Any], x: str, depth: int,
             scale: float | None = None) -> None:
        """Code encoding variable ``x`` (not None) given the sample ``values`` (may hold None).

        ``scale``: the divisor for numbers (shared by the positions of one list)."""
        L = self.L
        present = [v for v in values if v is not None]
        if not present:
            return
        if len(present) < len(values):
            self.emit(depth, f"D[{self.off}{L.take(label + '?')}] = 1.0")
        bools = [v for v in present if isinstance(v, bool)]
        nums = [v for v in present if _is_num(v)]
        strs = [v for v in present if isinstance(v, str)]
        dicts = [v for v in present if isinstance(v, dict)]
        lists = [v for v in present if isinstance(v, list)]
        kinds = sum(1 for k in (bools, nums, strs, dicts, lists) if k)
        if bools and nums:  # 1 == True: equal values may encode differently here
            self.mixed = True
        t = self.fresh()
        if self.checked or kinds > 1:
            self.emit(depth, f"{t} = type({x})")
        first = True

        def branch(cond: str) -> int:
            nonlocal first
            if not self.checked and kinds == 1:
                return depth
            self.emit(depth, ("if " if first else "elif ") + cond + ":")
            first = False
            return depth + 1

        if bools:
            d = branch(f"{t} is bool")
            self.emit(d, f"if {x}: D[{self.off}{L.take(label)}] = 1.0")
        if nums:
            if scale is None:
                scale = float(max(1.0, max(abs(v) for v in nums)))
            slot = L.take(label, numeric=True)
            d = branch(f"{t} is int or {t} is float")
            self.emit(d, f"if {x}:")
            self.emit(d + 1, f"D[{self.off}{slot}] = {x} * {1.0 / scale!r}")
        if strs:
            vocab, other = self.vocab(strs, label)
            d = branch(f"{t} is str")
            j = self.fresh()
            self.emit(d, f"{j} = {vocab}.get({x})")
            self.emit(d, f"if {j} is not None: D[{self.off}{j}] = 1.0")
            self.emit(d, f"else: _tok({x}, {vocab}, {other}, D{self.tok_b})")
        if dicts:
            d = branch(f"{t} is dict")
            keys = list(dict.fromkeys(k for dv in dicts for k in dv))
            for k in keys:
                sub = [dv.get(k) for dv in dicts]
                if all(v is None for v in sub):
                    continue
                y = self.fresh()
                self.emit(d, f"{y} = {x}.get({k!r})")
                self.emit(d, f"if {y} is not None:")
                self.node(f"{label}.{k}", sub, y, d + 1)
            self.emit(d, "pass")
        if lists:
            d = branch(f"{t} is list")
            self.list_node(label, lists, x, d)

    def list_node(self, label: str, lists: list[list[Any]], x: str, depth: int) -> None:
        L = self.L
        elems = [e for lst in lists for e in lst]
        lengths = {len(lst) for lst in lists}
        if not elems:
            self.emit(depth, "pass")
            return
        # Lists that held a repeated element in discovery are counted (``+= 1``); the
        # others are sets (slots set to 1: a surprise repeat counts once).
        acc = "+= 1.0" if any(len(set(map(repr, lst))) < len(lst) for lst in lists) \
            else "= 1.0"
        if all(isinstance(e, str) for e in elems):
            vocab, other = self.vocab(elems, f"{label}[]")
            e, j = self.fresh(), self.fresh()
            if any(" " in s for s in elems):
                self.emit(depth, f"for {e} in {x}:")
                self.emit(depth + 1, f"{j} = {vocab}.get({e})")
                self.emit(depth + 1, f"if {j} is not None: D[{self.off}{j}] += 1.0")
                self.emit(depth + 1, f"else: _tok({e}, {vocab}, {other}, D{self.tok_b})")
            else:
                self.emit(depth, f"for {j} in map({vocab}.get, {x}, repeat({other})):")
                self.emit(depth + 1, f"D[{self.off}{j}] {acc}")
            return
        ints = all(_is_num(e) and int(e) == e for e in elems)
        if ints and len(lengths) > 1 and min(elems) >= 0 and max(elems) < SMALL_INT:
            top = max(int(max(elems)) + 1, self.enc.game.num_players)
            base = L.size
            for i in range(top):
                L.take(f"{label}[]={i}")
            e = self.fresh()
            self.emit(depth, f"for {e} in {x}:")
            self.emit(depth + 1, f"if type({e}) is int and 0 <= {e} < {top}: "
                                 f"D[{self.off}{base} + {e}] {acc}")
            return
        n = self.fresh()
        self.emit(depth, f"{n} = len({x})")
        if len(lengths) == 1 or all(_is_scalar(e) for e in elems):
            # fixed length (one entry per seat) or a record: positions from the start;
            # numbers share one scale across positions (seat-symmetric quantities)
            nums = [abs(e) for e in elems if _is_num(e)]
            scale = float(max(1.0, max(nums))) if nums else None
            for i in range(min(max(lengths), 4 * TAIL)):
                sub = [lst[i] if len(lst) > i else None for lst in lists]
                y = self.fresh()
                self.emit(depth, f"if {n} > {i}:")
                self.emit(depth + 1, f"{y} = {x}[{i}]")
                self.emit(depth + 1, f"if {y} is not None:")
                self.node(f"{label}[{i}]", sub, y, depth + 2, scale)
            return
        longest = max(lengths)
        slot = L.take(f"{label}.len", numeric=True)
        self.emit(depth, f"if {n}: D[{self.off}{slot}] = {n} * {1.0 / longest!r}")
        for i in range(1, min(longest, TAIL) + 1):
            sub = [lst[-i] if len(lst) >= i else None for lst in lists]
            y = self.fresh()
            self.emit(depth, f"if {n} >= {i}:")
            self.emit(depth + 1, f"{y} = {x}[-{i}]")
            self.emit(depth + 1, f"if {y} is not None:")
            self.node(f"{label}[-{i}]", sub, y, depth + 2)

    def compile_parts(self, samples: list[dict[str, Any]]) -> list[_Part]:
        """One function per top-level key of the view (the views are dicts); a key that
        always held a dict, or a list of one fixed length (one entry per seat), with
        containers among its entries gets one function per sub-key or position instead,
        so that one changed seat or field is re-encoded alone.

        Each part's slots form one contiguous range ``[lo, hi)`` of the layout (slots are
        taken in the order the code is generated), so a part can be re-encoded alone."""
        keys = list(dict.fromkeys(k for v in samples for k in v))
        parts: list[tuple[Any, ...]] = []  # (path, function name, lo, hi[, tail shape])
        #: per part: some place held both booleans and numbers (compare types there too)
        self.mixed_parts: list[bool] = []

        def part(path: tuple[Any, ...], label: str, sub: list[Any],
                 scale: float | None = None) -> None:
            if all(v is None for v in sub):
                return
            lo = self.L.size
            name = f"part{len(parts)}"
            self.emit(0, f"def {name}(y, D):")
            self.mixed = False
            self.node(label, sub, "y", 1, scale)
            self.emit(1, "return None")
            self.lines.append("")
            if self.L.size > lo:  # parts without slots (always-empty lists) are left out
                self.mixed_parts.append(self.mixed)
                parts.append((path, name, lo, self.L.size))

        def tail_part(path: tuple[Any, ...], label: str, lists: list[list[Any]]) -> None:
            # A log: its length, then the last ``T`` entries, most recent first. Every
            # position has the same sub-layout (one function writes an entry into the
            # newest position's slots plus ``b``, ``i * stride`` for position i), so when
            # entries are appended the older positions move down by a slice copy and
            # only the new entries are encoded.
            L = self.L
            lo = L.size
            longest = max(len(v) for v in lists)
            T = min(longest, TAIL)
            len_slot = L.take(f"{label}.len", numeric=True)
            block = L.size
            name = f"part{len(parts)}"
            self.emit(0, f"def {name}(y, D, b):")
            self.mixed = False
            self.off, self.tok_b = "b + ", ", b"
            self.node(f"{label}[-1]", [e for v in lists for e in v[-T:]], "y", 1)
            self.off, self.tok_b = "", ""
            self.emit(1, "return None")
            self.lines.append("")
            stride = L.size - block
            numeric = set(L.numeric)
            for i in range(2, T + 1):
                for s in range(block, block + stride):
                    L.take(L.labels[s].replace(f"{label}[-1]", f"{label}[-{i}]", 1),
                           numeric=s in numeric)
            self.mixed_parts.append(self.mixed)
            parts.append((path, name, lo, L.size, (len_slot, 1.0 / longest, block, stride, T)))

        def nested(values: list[Any]) -> bool:  # some entry is a container
            return any(isinstance(e, (dict, list)) for v in values
                       for e in (v.values() if isinstance(v, dict) else v))

        for k in keys:
            sub: list[Any] = [v.get(k) for v in samples]
            label = f"view.{k}"
            # split only containers of containers (entries of scalars are cheaper whole)
            if all(isinstance(v, dict) for v in sub) and nested(sub):
                for k2 in dict.fromkeys(k2 for d in sub for k2 in d):
                    part((k, k2), f"{label}.{k2}", [d.get(k2) for d in sub])
                continue
            lengths = {len(v) for v in sub if isinstance(v, list)}
            if all(isinstance(v, list) for v in sub) and len(lengths) == 1 \
                    and 2 <= min(lengths) <= 4 * TAIL and nested(sub):
                # positional, exactly as ``list_node`` lays out a fixed-length list
                nums = [abs(e) for v in sub for e in v if _is_num(e)]
                scale = float(max(1.0, max(nums))) if nums else None
                for i in range(min(lengths)):
                    part((k, i), f"{label}[{i}]", [v[i] for v in sub], scale)
                continue
            if all(isinstance(v, list) for v in sub) and len(lengths) > 1 and \
                    not all(_is_scalar(e) for v in sub for e in v):
                tail_part((k,), label, sub)
                continue
            part((k,), label, sub)
        source = "\n".join(self.lines)
        namespace = dict(self.consts)
        exec(compile(source, "<spieltisch.rl view encoder>", "exec"), namespace)
        self.source = source
        self.parts = [_Part(p[0], namespace[p[1]], p[2], p[3]) if len(p) == 4 else
                      _Tail(p[0], namespace[p[1]], p[2], p[3], *p[4]) for p in parts]
        return self.parts


class _Part:
    """The encoding of ``view[path[0]]`` (or of its entry ``path[1]``, a key or a
    position): ``fn`` writes slots ``lo … hi-1``."""

    __slots__ = ("path", "fn", "lo", "hi")

    def __init__(self, path: tuple[Any, ...], fn: Callable[..., None], lo: int,
                 hi: int) -> None:
        self.path, self.fn, self.lo, self.hi = path, fn, lo, hi


class _Tail(_Part):
    """A log part: ``fn`` encodes the whole list (its slots zeroed before), ``update``
    turns the encoding of ``old`` into that of ``new`` and shifts when entries were
    appended. ``entry`` encodes one entry into the newest position."""

    __slots__ = ("entry", "len_slot", "scale", "block", "stride", "T", "_blank", "_clear")

    def __init__(self, path: tuple[Any, ...], entry: Callable[..., None], lo: int, hi: int,
                 len_slot: int, scale: float, block: int, stride: int, T: int) -> None:
        super().__init__(path, self.encode, lo, hi)
        self.entry, self.len_slot, self.scale = entry, len_slot, scale
        self.block, self.stride, self.T = block, stride, T
        self._blank = array("f", bytes(4 * stride))  # one position
        self._clear = array("f", bytes(4 * (hi - lo)))  # the whole part

    def _push(self, entries: list[Any], D: array, filled: int) -> None:
        """Shift the ``filled`` occupied positions down by one per entry (the oldest
        falls off) and encode the entry as the newest."""
        b, s, T = self.block, self.stride, self.T
        entry, blank = self.entry, self._blank
        for e in entries:
            move = (filled if filled < T else T - 1) * s
            if move:  # (an empty slice assignment would count as a resize)
                D[b + s:b + s + move] = D[b:b + move]
                D[b:b + s] = blank
            filled += 1
            if e is not None:
                entry(e, D, 0)

    def encode(self, y: Any, D: array) -> None:
        if y.__class__ is not list:
            raise TypeError("a log part holds a list")
        if y:
            D[self.len_slot] = len(y) * self.scale
            b, s, entry = 0, self.stride, self.entry
            for e in reversed(y[-self.T:]):
                if e is not None:
                    entry(e, D, b)
                b += s

    def update(self, old: Any, new: Any, D: array) -> None:
        if old.__class__ is list and new.__class__ is list and old and new:
            k = self._appended(old, new)
            if k is not None:
                D[self.len_slot] = len(new) * self.scale
                if k:
                    self._push(new[len(new) - k:], D, min(len(old), self.T))
                return
        D[self.lo:self.hi] = self._clear
        if new is not None:
            self.encode(new, D)

    def _appended(self, old: list[Any], new: list[Any]) -> int | None:
        """How many entries ``new`` has after the tail of ``old`` (None: not an append)."""
        T, n, m = self.T, len(new), len(old)
        shown = min(T, n)
        last = old[-1]
        for k in range(shown):
            # after a shift by k, positions k.. hold old's entries: old must fill them
            # exactly (no gap, and none left over inside the shown positions)
            if (m != n - k) if n < T else (m < T - k):
                continue
            e = new[n - 1 - k]
            if e is last or e == last:
                keep = shown - k
                if new[n - k - keep:n - k] == old[m - keep:]:
                    return k
        return T if n >= T else None  # T pushes rewrite every position


class ViewEncoder:
    """Turns one seat's view into a ``float32`` vector of fixed size ``size``.

    The first ``num_players + 2`` slots are a header the environment fills: the
    observing seat (one-hot), "the game waits for me" and "I may act out of turn".
    The view part is encoded by functions generated from the discovered schema, one
    per top-level key of the view, each owning a contiguous slot range (``source``
    holds their text; ``labels`` names every slot). ``IncrementalEncoder`` re-encodes
    only the keys whose value changed since the previous call.
    """

    def __init__(self, game: Game, samples: list[dict[str, Any]]) -> None:
        self.game = game
        self.card_codes = tuple(game.view_card_codes or game.card_codes)
        self._codes = set(self.card_codes)
        self.layout = _Layout()
        n = game.num_players
        for s in range(n):
            self.layout.take(f"header.seat={s}")
        self.required_slot = self.layout.take("header.required")
        self.optional_slot = self.layout.take("header.optional")
        self.header = n + 2
        if not samples or not all(isinstance(v, dict) for v in samples):
            raise TypeError(f"{game.name}: views must be JSON objects (dicts)")
        # Two function sets over the same layout: fast ones without type checks where the
        # discovered type is unique, and checked ones used if a fast one fails.
        safe_layout = _Layout()
        safe_layout.__dict__.update({k: list(v) if isinstance(v, list) else v
                                     for k, v in self.layout.__dict__.items()})
        gen = _Gen(self, self.layout, checked=False)
        self.parts = gen.compile_parts(samples)
        self.source = gen.source
        safe = _Gen(self, safe_layout, checked=True)
        safe_parts = safe.compile_parts(samples)
        assert safe_layout.labels == self.layout.labels
        #: part index -> (path, fast function, checked function, lo, hi)
        self.plan = [(p.path, p.fn, q.fn, p.lo, p.hi)
                     for p, q in zip(self.parts, safe_parts, strict=True)]
        self._update = self._compile_update(gen)
        self._update_checked = self._compile_update(safe)
        self.size = self.layout.size
        low = np.zeros(self.size, dtype=np.float32)
        low[self.layout.numeric] = -BIG
        self.low = low
        self.high = np.full(self.size, BIG, dtype=np.float32)
        self.labels = self.layout.labels

    def _compile_update(self, gen: _Gen) -> Callable[..., None]:
        """The function re-encoding the parts whose value changed.

        ``update(view, values, D)`` collects every part's value from the view, compares
        them with ``values`` at C speed (``!=``; where discovery met both booleans and
        numbers at one place, equal values must also have the same types, as
        ``1 == True``), and for each changed part remembers the value, zeroes its slots
        in ``D`` (an ``array("f")``) and encodes it there."""
        getters: list[str] = []
        pre: list[str] = []
        parents: dict[str, str] = {}
        for path, _f, _s, _lo, _hi in self.plan:
            if len(path) == 1:
                getters.append(f"get({path[0]!r})")
                continue
            kind = "list" if isinstance(path[1], int) else "dict"
            var = parents.get(path[0])
            if var is None:
                var = parents[path[0]] = f"p{len(parents)}"
                empty = "()" if kind == "list" else "EMPTY"
                pre += [f"    {var} = get({path[0]!r})",
                        f"    if {var}.__class__ is not {kind}: {var} = {empty}"]
            if kind == "list":
                getters.append(f"{var}[{path[1]}] if len({var}) > {path[1]} else None")
            else:
                getters.append(f"{var}.get({path[1]!r})")
        lines = ["def update(view, values, D):", "    get = view.get", *pre,
                 "    new = [" + ",\n           ".join(getters) + "]"]
        mixed = [i for i, m in enumerate(gen.mixed_parts) if m]
        if mixed:
            lines.append("    flags = list(map(ne, new, values))")
            for i in mixed:
                lines += [f"    if not flags[{i}] and new[{i}] is not values[{i}] and "
                          f"not same(new[{i}], values[{i}]): flags[{i}] = True"]
        else:
            lines.append("    flags = map(ne, new, values)")
        lines += ["    for i in compress(R, flags):",
                  "        v = new[i]",
                  "        if i in TAILS:",
                  "            TAILS[i](values[i], v, D)",
                  "            values[i] = v",
                  "            continue",
                  "        values[i] = v",
                  "        D[S[i]] = Z[i]",
                  "        if v is not None:",
                  "            F[i](v, D)",
                  "    return None"]
        fns = [p.fn for p in gen.parts]
        tails = {i: p.update for i, p in enumerate(gen.parts) if isinstance(p, _Tail)}
        namespace: dict[str, Any] = {
            "ne": operator.ne, "compress": itertools.compress, "EMPTY": {},
            "same": _same_types, "TAILS": tails,
            "R": range(len(self.plan)), "F": fns,
            "S": [slice(lo, hi) for _p, _f, _s, lo, hi in self.plan],
            "Z": [array("f", bytes(4 * (hi - lo))) for _p, _f, _s, lo, hi in self.plan]}
        exec(compile("\n".join(lines), "<spieltisch.rl incremental encoder>", "exec"),
             namespace)
        return namespace["update"]

    def encode(self, view: Mapping[str, Any] | None, seat: int | None = None,
               required: bool = False, optional: bool = False) -> np.ndarray:
        if view is None:
            out = np.zeros(self.size, dtype=np.float32)
            for slot, on in ((seat, seat is not None), (self.required_slot, required),
                             (self.optional_slot, optional)):
                if on:
                    out[slot] = 1.0
            return out
        return IncrementalEncoder(self).encode(view, seat, required, optional)


_UNSET = object()


def _same_types(a: Any, b: Any) -> bool:
    """For ``a == b``: also the same types throughout (``1 == True`` encode apart where a
    place holds both). Shared sub-objects are skipped at C speed."""
    if a is b:
        return True
    cls = a.__class__
    if cls is not b.__class__:
        return False
    if cls is list:
        return all(map(operator.is_, a, b)) or all(map(_same_types, a, b))
    if cls is dict:
        return all(_same_types(v, b[k]) for k, v in a.items())
    return True


class IncrementalEncoder:
    """``ViewEncoder.encode`` that re-encodes only the parts of the view that changed.

    It keeps the previous call's encoding (of any seat) and, per part (a top-level key,
    or one key / position of a top-level dict / fixed-length list), the value it was
    computed from; a part whose value is equal is not encoded again. Results equal a
    fresh encoding (``tests/test_rl_incremental.py`` checks it); every call returns a
    fresh array. This relies on the engine's view contract
    (``docs/engine.md``): objects in a returned view are never mutated afterwards.
    One instance per environment (it is stateful; the ``ViewEncoder`` is shared).
    """

    def __init__(self, encoder: ViewEncoder) -> None:
        self.encoder = encoder
        self.update = encoder._update
        self.update_checked = encoder._update_checked
        self.size = encoder.size
        self.required_slot = encoder.required_slot
        self.optional_slot = encoder.optional_slot
        self.reset()

    def reset(self) -> None:
        #: the previous encoding; the generated code writes its slots one by one, which
        #: costs less in an ``array`` than gathering them for a numpy ``put``
        self.dense = array("f", bytes(4 * self.size))
        self._np = np.frombuffer(self.dense, dtype=np.float32)  # a view, for copying out
        self.values: list[Any] = [_UNSET] * len(self.encoder.plan)

    def encode(self, view: Mapping[str, Any], seat: int | None = None,
               required: bool = False, optional: bool = False) -> np.ndarray:
        try:
            self.update(view, self.values, self.dense)
        except Exception:  # a type never met in discovery: start over, checked
            self.reset()
            self.update_checked(view, self.values, self.dense)
        out = self._np.copy()
        if seat is not None:
            out[seat] = 1.0
        if required:
            out[self.required_slot] = 1.0
        if optional:
            out[self.optional_slot] = 1.0
        return out


def discover_views(game: Game, games: int = 4, max_states: int = 240,
                   seed: int = 12345) -> list[dict[str, Any]]:
    """Views of every seat at states met in seeded random games (deterministic)."""
    from ..bots.base import RandomBot
    from ..runner import step

    n = game.num_players
    per_game = max(1, max_states // games)
    out: list[dict[str, Any]] = []
    for g in range(games):
        state = game.new_state(seed=seed + g)
        bots = [RandomBot(game, s, seed + 100 * g + s, react_p=0.3) for s in range(n)]
        rng = random.Random(seed + g)
        states = []
        count = 0
        limit = min(game.spec.max_actions, 3000)
        while not state.is_over() and count < limit:
            states.append(state.clone())
            step(state, bots, rng)
            count += 1
        states.append(state)
        stride = max(1, len(states) // per_game)
        picked = states[::stride] + [states[-1]]
        for st in picked:
            for s in range(n):
                out.append(st.view(s))
    return out


class StateEncoder:
    """The observation of a game with its own ``Observer`` (``core.observation``): the
    observer's slots, written straight from the state, then the header (the observing
    seat one-hot, "the game waits for me", "I may act out of turn")."""

    def __init__(self, game: Game, observer: Observer) -> None:
        self.game = game
        self.observer = observer
        n = game.num_players
        base = observer.size
        self.seat_slot = base
        self.required_slot = base + n
        self.optional_slot = base + n + 1
        self.labels = [*observer.labels, *(f"header.seat={s}" for s in range(n)),
                       "header.required", "header.optional"]
        self.size = len(self.labels)
        low = np.zeros(self.size, dtype=np.float32)
        low[observer.numeric] = -BIG
        self.low = low
        self.high = np.full(self.size, BIG, dtype=np.float32)
        self._zeros = bytes(4 * self.size)

    def encode_state(self, state: State, seat: int, required: bool = False,
                     optional: bool = False) -> np.ndarray:
        """A fresh float32 array: what ``seat`` sees of ``state``."""
        D = array("f", self._zeros)
        self.observer.write(state, seat, D)
        D[self.seat_slot + seat] = 1.0
        if required:
            D[self.required_slot] = 1.0
        if optional:
            D[self.optional_slot] = 1.0
        return np.frombuffer(D, F32)  # writable, owns its fresh buffer


_CACHE: dict[tuple[Any, ...], ViewEncoder] = {}


def encoder_for(game: Game, observation: str = "auto") -> ViewEncoder | StateEncoder:
    """The (cached) encoder of a configured game: its own observer where it has one
    (``observation="auto"``), else, or with ``observation="view"``, the generic
    encoding of its JSON view."""
    if observation not in ("auto", "view"):
        raise ValueError(f"observation must be 'auto' or 'view', not {observation!r}")
    observer = game.observer() if observation == "auto" else None
    if observer is not None:
        # Per game object, not per configuration: an observer may keep what it last
        # wrote (to rewrite only what changed), so environments do not share one.
        return StateEncoder(game, observer)
    key = (game.name, game.num_players, tuple(sorted(game.options.items())))
    enc = _CACHE.get(key)
    if enc is None:
        enc = ViewEncoder(game, discover_views(game))
        _CACHE[key] = enc
    return enc


__all__ = ["TAIL", "IncrementalEncoder", "StateEncoder", "ViewEncoder", "discover_views",
           "encoder_for"]
