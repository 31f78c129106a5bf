"""Compare two tournaments of two bots each, played on the same deals (the same seed and
the same bot in the second place), deal by deal: how much more often the first's bot 1
finished ahead of bot 2 than the second's did.

    .venv/bin/python scripts/paired.py FIRST.json SECOND.json

FIRST and SECOND are ``spieltisch tournament --out`` files. Pairing the deals takes the
luck of the cards out of the comparison (``spieltisch.tournament.paired_difference``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from spieltisch.tournament import head_to_head, paired_difference

#: What two tournaments must share to have been played on the same deals.
SAME_DEALS = ("game", "players", "options", "seed")


def load(path: Path) -> dict[str, Any]:
    """A tournament's results; exits with a clear message for a file that is not one."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        specs, records = data["specs"], data["records"]
        if not (isinstance(specs, list) and all(isinstance(b, str) for b in specs)
                and isinstance(records, list)):
            raise ValueError("'specs' must list bot specs and 'records' the games")
        for r in records:
            if not (isinstance(r, dict) and isinstance(r.get("deal"), int)
                    and isinstance(r.get("bots"), list) and isinstance(r.get("ranks"), list)
                    and len(r["bots"]) == len(r["ranks"])):
                raise ValueError(f"a game record without its deal, bots and ranks: {r!r:.80}")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        sys.exit(f"{path}: not a tournament's --out file ({exc})")
    if len(specs) != 2:
        sys.exit(f"{path}: {len(specs)} bots; compare tournaments of two bots")
    return {"specs": specs, "records": records, **{k: data.get(k) for k in SAME_DEALS}}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first", type=Path)
    parser.add_argument("second", type=Path)
    args = parser.parse_args(argv)
    one, two = load(args.first), load(args.second)
    differ = [k for k in SAME_DEALS if one[k] != two[k]]
    if differ:
        sys.exit("not the same deals: " + "; ".join(
            f"{k} {one[k]} against {two[k]}" for k in differ))
    for t, path in ((one, args.first), (two, args.second)):
        (h,) = head_to_head(t["records"], t["specs"])
        lo, hi = h["ci95_deals"] or (float("nan"), float("nan"))
        print(f"{path}: {h['a']} ahead of {h['b']} {h['a_ahead']:.3f} "
              f"(95% over {h['deals']} deals {lo:.3f}-{hi:.3f})")
    out = paired_difference(one["records"], two["records"], tuple(one["specs"]),
                            tuple(two["specs"]))
    if out["ci95"] is None:
        sys.exit(f"{out['deals']} deal(s) in common: too few to compare")
    lo, hi = out["ci95"]
    print(f"paired over {out['deals']} deals: {out['difference']:+.3f} "
          f"(95% {lo:+.3f} to {hi:+.3f})")


if __name__ == "__main__":
    main()
