"""``spieltisch tournament``: bots against each other in rotating seats, with ratings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from ..core.game import SpieltischError
from ..core.registry import get_spec
from .args import GameArg
from .workers import RayOpt, games_progress, open_workers


def tournament(
    game: GameArg,
    bots: Annotated[str, typer.Option(help="the competing bots, comma-separated bot specs "
                                           "name[:budget[:key=value...]], e.g. "
                                           "random,heuristic,ismcts:200")]
    = "random,heuristic,ismcts:200",
    players: Annotated[int | None, typer.Option("--players", "-p", help="seats per game")]
    = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1,
                                       help="games (rounded up to whole rotations)")] = 60,
    seed: Annotated[int, typer.Option(help="run seed: same seed, same results")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="processes")] = 1,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="rule option key=value; repeatable")] = None,
    out: Annotated[Path | None, typer.Option(help="write the results (summary and every "
                                                  "game) as JSON here; until then each "
                                                  "finished game is kept in OUT.games.jsonl, "
                                                  "and the same command run again after an "
                                                  "interruption resumes from it")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the summary as JSON")] = False,
    ray: RayOpt = None,
) -> None:
    """Play bots against each other in rotating seats; print win rates and ratings.

    Each bot takes each seat equally often, and every rotation is played on the same
    deal. The table gives seat-games, wins, win rate with its 95% Wilson interval,
    mean score, mean place and an OpenSkill (Plackett-Luce) rating from the places.
    """
    from .. import tournament as tour
    from ..bots import make_bot, parse_bot_spec
    from .main import console, err, fail, parse_options

    try:
        g = get_spec(game).configure(players, parse_options(option))
        specs = [p.strip() for p in bots.split(",") if p.strip()]
        if not specs:
            fail("no bots given")
        if len(set(specs)) != len(specs):
            fail("each bot spec may appear once (it is rotated through every seat)")
        for b in specs:  # fail early on a bad bot spec
            parse_bot_spec(b)
            make_bot(g, b, 0, 0)
    except SpieltischError as e:
        fail(str(e))
    matches = tour.matches_for(game, g.num_players, g.options, specs, seed, games)
    journal = None
    done: dict[int, dict[str, Any]] = {}
    if out is not None:
        journal = tour.Journal(Path(f"{out}.games.jsonl"), {
            "game": game, "players": g.num_players, "options": g.options, "specs": specs,
            "seed": seed})
        try:
            done = journal.load(matches)
            journal.start()
        except SpieltischError as e:
            fail(str(e))
        except OSError as e:
            fail(f"cannot read or write the game journal {journal.path}: {e.strerror or e}")
        if done:
            err.print(f"resuming: {len(done)} of {len(matches)} games already played "
                      f"({journal.path})")
    with open_workers(jobs, ray) as workers, \
            games_progress(err, disable=as_json and not err.is_terminal) as progress:
        bar = progress.add_task(f"{game} tournament", total=len(matches),
                                completed=len(done))
        try:
            records = tour.run(matches, jobs, lambda k: progress.advance(bar, k), done,
                               journal.add if journal else None, workers)
        except SpieltischError as e:
            fail(str(e), 1)
        except OSError as e:
            fail(f"cannot write the game journal {journal.path if journal else ''}: "
                 f"{e.strerror or e}", 1)
        except KeyboardInterrupt:
            progress.stop()
            if journal is None:
                fail("interrupted (no --out: nothing was kept)", 130)
            fail(f"interrupted: {journal.games} of {len(matches)} games are kept in "
                 f"{journal.path}; "
                 "run the same command again to play the rest", 130)
    summary = tour.summarise(records, specs, g.num_players)
    summary.update({"game": game, "players": g.num_players, "options": g.options,
                    "specs": specs, "seed": seed, "requested_games": games})
    if out is not None and journal is not None:
        try:
            out.write_text(json.dumps({**summary, "records": records}, indent=1))
        except OSError as e:
            fail(f"cannot write {out}: {e.strerror or e}; every game is kept in "
                 f"{journal.path}: run the same command again once {out} can be written", 1)
        if not journal.other_games:  # all of it is in ``out`` now
            journal.path.unlink(missing_ok=True)
    if as_json:
        print(json.dumps(summary, indent=1))
        return
    print_table(summary, console)
    if out is not None:
        console.print(f"results written to {out}")


def print_table(summary: dict[str, Any], console: Any) -> None:
    extra = "" if summary["games"] == summary["requested_games"] else \
        f" (rounded up from {summary['requested_games']} to whole rotations)"
    console.print(f"[bold]{summary['game']}[/] tournament, {summary['players']} players, "
                  f"{summary['games']} games{extra}, seed {summary['seed']}, "
                  f"options {summary['options']}; chance win rate "
                  f"{summary['chance_win_rate']:.3f}")
    t = Table(title="Bots (sorted by rating)")
    for col in ("bot", "seat-games", "wins", "win rate", "95% interval", "mean score",
                "mean place", "rating μ±σ", "ordinal"):
        t.add_column(col, justify="right")
    for b in sorted(summary["bots"], key=lambda b: -b["rating"]["ordinal"]):
        lo, hi = b["ci95"]
        r = b["rating"]
        t.add_row(b["bot"], str(b["seat_games"]), str(b["wins"]), f"{b['win_rate']:.3f}",
                  f"{lo:.3f}–{hi:.3f}", f"{b['mean_score']:.2f}", f"{b['mean_place']:.2f}",
                  f"{r['mu']:.1f}±{r['sigma']:.1f}", f"{r['ordinal']:.1f}")
    console.print(t)
    if summary["head_to_head"]:
        console.print(head_to_head_table(summary["head_to_head"]))
    if summary["draws"]:
        console.print(f"games without a single winner: {summary['draws']}")


def head_to_head_table(pairs: list[dict[str, Any]], **table: Any) -> Table:
    """Each pair of agents: the share of seat pairs where A finished ahead of B."""
    t = Table(title="Head to head (share of seat pairs where A finished ahead of B)", **table)
    for col in ("A", "B", "games", "seat pairs", "A ahead", "95% (seat pairs)",
                "95% (deals)"):
        t.add_column(col, justify="right")
    for h in pairs:
        lo, hi = h["ci95"]
        by_deal = h["ci95_deals"]
        t.add_row(h["a"], h["b"], str(h["games"]), str(h["seat_pairs"]),
                  f"{h['a_ahead']:.3f}", f"{lo:.3f}–{hi:.3f}",
                  f"{by_deal[0]:.3f}–{by_deal[1]:.3f}" if by_deal else "–")
    return t


def register(app: typer.Typer) -> None:
    """Add the ``tournament`` command to the main application."""
    app.command("tournament")(tournament)
