"""``spieltisch ladder``: the reference agents against each other, ratings with intervals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.table import Table

from ..core.game import SpieltischError
from ..core.registry import get_spec
from ..ladder import DEFAULT_BOOTSTRAP, DEFAULT_GAMES, DEFAULT_SEED
from .args import GameArg
from .tournament import head_to_head_table
from .workers import RayOpt, games_progress, open_workers


def ladder(
    game: GameArg,
    agents: Annotated[str | None, typer.Option(
        help="the agents, comma-separated: bot specs (random, heuristic, ismcts:100, "
             "name[:budget[:key=value...]]) or levels (easy, medium, hard) [default: "
             "random, heuristic where the game has one, hard]", show_default=False)] = None,
    players: Annotated[int | None, typer.Option("--players", "-p", help="seats per game "
                                                "[default: the game's]", show_default=False)]
    = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1,
                                       help="games (rounded up to whole rotations)")]
    = DEFAULT_GAMES,
    seed: Annotated[int, typer.Option(help="run seed: same seed, same table")] = DEFAULT_SEED,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="processes")] = 1,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="rule option key=value; repeatable")] = None,
    bootstrap: Annotated[int, typer.Option(min=2, help="resamples of the deals behind each "
                                                       "rating's interval")]
    = DEFAULT_BOOTSTRAP,
    out: Annotated[Path | None, typer.Option(help="write the table, the head-to-head "
                                                  "shares and every game's record "
                                                  "(enough to recompute) as JSON here")]
    = None,
    as_markdown: Annotated[bool, typer.Option("--markdown", help="print the table as "
                                                                 "Markdown (docs/strength.md)")]
    = False,
    ray: RayOpt = None,
) -> None:
    """Rate reference agents against each other: OpenSkill ratings with intervals.

    The agents play a tournament (each takes each seat equally often; every rotation is
    played on the same deal) on fixed seeds, and are rated by OpenSkill (Plackett-Luce)
    from the places the game gives, ties included. The table gives each agent's mu and
    sigma, two 95% intervals for mu (the model's, mu ± 1.96 sigma, and the deals',
    mu ± 1.96 standard deviations of mu over resamples of the deals), its ahead share
    against the other agents' seats and its win rate (95% Wilson intervals) and its CPU
    time per decision. The levels easy and medium are the random and heuristic bots;
    hard is the level's search without its wall-clock cap, so that the same seed gives
    the same table on any machine (it takes about a second a decision: try
    --agents easy,medium,ismcts:100 first). More games narrow the intervals.
    """
    from .. import ladder as lad
    from .. import tournament as tour
    from .main import check_writable, console, err, fail, parse_options

    try:
        g = get_spec(game).configure(players, parse_options(option))
        names = lad.default_agents(g) if agents is None else \
            [a.strip() for a in agents.split(",") if a.strip()]
        chosen = lad.resolve_agents(g, names)
    except SpieltischError as e:
        fail(str(e))
    if out is not None:
        check_writable(out, "--out")
    with open_workers(jobs, ray) as workers, \
            games_progress(err, disable=not err.is_terminal) as progress:
        bar = progress.add_task(f"{game} ladder",
                                total=tour.rounded_games(games, len(chosen)))
        try:
            records = lad.play(game, g.num_players, g.options, chosen, seed, games, jobs,
                               lambda k: progress.advance(bar, k), workers)
        except SpieltischError as e:
            fail(str(e), 1)
        except KeyboardInterrupt:
            progress.stop()
            fail("interrupted: nothing was kept", 130)
    result: dict[str, Any] = {
        "game": game, "players": g.num_players, "options": g.options, "seed": seed,
        "requested_games": games,
        "command": lad.command(game, g.num_players, games, seed, chosen,
                               parse_options(option)),
        **lad.summarise(records, chosen, g.num_players, bootstrap, seed)}
    if out is not None:
        try:
            out.write_text(json.dumps({**result, "records": records}, indent=1))
        except OSError as e:
            fail(f"cannot write {out}: {e.strerror or e}", 1)
    if as_markdown:
        print(lad.markdown(result), end="")
    else:
        print_table(result, console)
    if out is not None:
        err.print(f"results written to {out}")


def print_table(result: dict[str, Any], console: Any) -> None:
    """The ladder as a Rich table, best rating first."""
    console.print(f"[bold]{result['game']}[/] ladder, {result['players']} players, "
                  f"{result['games']} games, seed {result['seed']}, options "
                  f"{result['options']}; chance win rate {result['chance_win_rate']:.3f}")
    for r in result["table"]:
        levels = f", the level{'s' * (len(r['levels']) > 1)} {' and '.join(r['levels'])}" \
            if r["levels"] and list(r["levels"]) != [r["label"]] else ""
        console.print(f"  {r['label']}: {r['spec']}{levels}", markup=False, highlight=False)
    t = Table(title=f"Ratings (OpenSkill Plackett-Luce; μ 95%: ±1.96 SE over "
                    f"{result['bootstrap']} resamples of the deals)", box=box.SIMPLE_HEAD)
    for col in ("agent", "μ", "σ", "μ 95%", "seat-games", "ahead", "95%", "win rate", "95%",
                "CPU ms/decision"):
        t.add_column(col, justify="right")
    for r in result["table"]:
        ci = r["mu_ci95"]
        alo, ahi = r["ahead_ci95"]
        wlo, whi = r["win_ci95"]
        t.add_row(r["label"], f"{r['mu']:.2f}", f"{r['sigma']:.2f}",
                  f"{ci[0]:.2f}–{ci[1]:.2f}" if ci else "–", str(r["seat_games"]),
                  f"{r['ahead']:.3f}", f"{alo:.3f}–{ahi:.3f}", f"{r['win_rate']:.3f}",
                  f"{wlo:.3f}–{whi:.3f}", f"{r['cpu_per_decision'] * 1000:.3g}")
    console.print(t)
    console.print(head_to_head_table(result["head_to_head"], box=box.SIMPLE_HEAD))
    if result["draws"]:
        console.print(f"games without a single winner: {result['draws']}")


def register(app: typer.Typer) -> None:
    """Add the ``ladder`` command to the main application."""
    app.command("ladder")(ladder)
