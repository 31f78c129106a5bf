"""The ``spieltisch`` command line: games, rules, play, simulate, replay."""

from __future__ import annotations

import contextlib
import json
import os
import random
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..core.game import ConfigError, Event, SpieltischError, State
from ..core.registry import game_names, get_spec, load_position
from ..i18n import language_from_env, parse_language, translator
from .args import GameArg
from .workers import RayOpt


def _about() -> str:
    """The command's one line, naming every registered game by its title."""
    titles = [get_spec(name).title for name in game_names()]
    listed = ", ".join(titles[:-1]) + " and " + titles[-1] if len(titles) > 1 else \
        "".join(titles) or "card games"
    return f"spieltisch: play, simulate and replay {listed}."


app = typer.Typer(
    help=_about(),
    no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
    # plain help (click's): Rich's panels cut option names at 80 columns
    rich_markup_mode=None,
)
# emoji=False: bot specs such as "ismcts:100:depth=10" must not turn into emoji codes
console = Console(emoji=False)
if not console.is_terminal:
    console = Console(width=120, emoji=False)
err = Console(stderr=True, emoji=False)


def _show_version(value: bool) -> None:
    if value:
        from .. import __version__, build

        typer.echo(f"spieltisch {__version__}, {build()}")
        raise typer.Exit()


@app.callback()
def _options(
    version: bool = typer.Option(False, "--version", callback=_show_version, is_eager=True,
                                 help="Print the version and which build runs (pure Python "
                                      "or compiled) and exit."),
) -> None:
    # no docstring: the app's help (``_about``, from the registry) is the command's text
    pass


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``error: message`` (the message literally: it may quote what the user typed,
    brackets and all) and exit."""
    err.print(Text.assemble(("error:", "bold red"), " ", message), highlight=False,
              soft_wrap=True)
    raise typer.Exit(code)


def say(text: str) -> None:
    """Print text for a person as it is: no markup, no highlighting, no line breaks added."""
    console.print(text, markup=False, highlight=False, soft_wrap=True)


def pick_language(lang: str | None) -> str:
    """``--lang`` if given (en, de, nl), else the terminal's language (LC_ALL, LANG …)."""
    if lang is None:
        return language_from_env()
    try:
        return parse_language(lang)
    except ValueError as e:
        fail(str(e))


def check_writable(path: Path, option: str) -> None:
    """Fail before any work when ``path`` cannot be written (a missing folder, say)."""
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        fail(f"{option} {path} is a folder, not a file")
    if not folder.is_dir():
        fail(f"{option} {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        fail(f"{option} {path}: the folder {folder} is not writable")


def parse_options(pairs: list[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for p in pairs or []:
        key, eq, value = p.partition("=")
        if not eq or not key:
            fail(f"--option takes key=value, not {p!r}")
        out[key.strip()] = value.strip()
    return out


LangOpt = Annotated[str | None, typer.Option(
    "--lang", help="language: en, de or nl (default: from LANG)")]
OptionOpt = Annotated[list[str] | None, typer.Option(
    "--option", "-o", help="rule option key=value (see 'spieltisch games'); repeatable")]


@app.command()
def games() -> None:
    """List the games, their player counts and rule options."""
    table = Table(title="Games")
    table.add_column("name")
    table.add_column("players")
    table.add_column("options (name=default)")
    table.add_column("about")
    for name in game_names():
        spec = get_spec(name)
        opts = "\n".join(o.describe() for o in spec.options) or "-"
        table.add_row(name, f"{spec.min_players}–{spec.max_players} "
                      f"(default {spec.default_players})", opts, spec.summary)
    console.print(table)


@app.command()
def rules(
    game: GameArg,
    guide: Annotated[bool, typer.Option(
        "--guide", help="the short how-to-play guide instead of the implementer's rules")]
    = False,
    full: Annotated[bool, typer.Option(
        "--full", help="the full rules as a player reads them (every rule and option), in "
                       "your language")] = False,
    lang: LangOpt = None,
) -> None:
    """Print a game's implementer's rules (English, every decision taken), with --full
    the full rules for players, or with --guide a short how-to-play guide; both in your
    language."""
    from ..guides import full_rules_text, guide_text, rules_text

    if guide and full:
        fail("choose one of --guide and --full")
    language = pick_language(lang)
    try:
        if full:
            text = full_rules_text(game, language)
        elif guide:
            text = guide_text(game, language)
        else:
            text = rules_text(game)
    except ConfigError as e:
        fail(str(e))
    say(text)


@app.command()
def play(
    game: GameArg,
    players: Annotated[int | None, typer.Option("--players", "-p", help="number of seats")] = None,
    seat: Annotated[int, typer.Option(help="your seat (0 is the first)")] = 0,
    bots: Annotated[str | None, typer.Option(
        help="bot for the other seats, or one per seat (yours is ignored), e.g. "
             "heuristic,random [default: the game's heuristic bot, random without one]",
        show_default=False)] = None,
    seed: Annotated[int | None, typer.Option(help="seed for the deal (default: random)")]
    = None,
    option: OptionOpt = None,
    save: Annotated[Path | None, typer.Option(help="save the replay here at the end")] = None,
    position: Annotated[Path | None, typer.Option(
        help="start from this position file (docs/positions.md) instead of a deal")] = None,
    name: Annotated[str | None, typer.Option(help="your name at the table")] = None,
    lang: LangOpt = None,
) -> None:
    """Play in the terminal against bots. Type an action or its number; 'help' lists commands."""
    from .terminal import play_terminal

    language = pick_language(lang)
    if save is not None:
        check_writable(save, "--save")
    try:
        start = None
        if position is not None:
            start = read_position(position)
            if start.game.name != game:
                fail(f"{position} is a position of {start.game.name}, not of {game}")
            g = start.game
        else:
            g = get_spec(game).configure(players, parse_options(option))
        if not 0 <= seat < g.num_players:
            fail(f"--seat must be between 0 and {g.num_players - 1}")
        if bots is None:  # the medium level: the rule of thumb, random for a game without
            from ..bots.levels import Level, bot_spec

            bots = bot_spec(g, Level.MEDIUM)
        run_seed = seed if seed is not None else random.randrange(2**31)
        # --- real-time hook (hood_politix helper): games that declare deadlines run
        # against the wall clock; see cli/realtime.py. ---
        from .realtime import play_realtime, uses_realtime

        if uses_realtime(g):
            play_realtime(g, seat, bots, run_seed, save, lang=language,
                          player=name or default_player_name(), start=start)
            return
        # --- end of the real-time hook ---
        play_terminal(g, seat, bots, run_seed, save, console, lang=language,
                      player=name or default_player_name(), start=start)
    except SpieltischError as e:
        fail(str(e))


def read_position(path: Path) -> State:
    """The state a position file describes; a clear error for anything wrong in it."""
    try:
        data = path.read_bytes()
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    try:
        return load_position(data)
    except ConfigError as e:
        fail(f"{path}: {e}")


def default_player_name() -> str:
    """The login name, capitalised, as the human's name at a terminal table."""
    import getpass

    try:
        return getpass.getuser().capitalize() or "You"
    except (OSError, KeyError):
        return "You"


@app.command()
def simulate(
    game: GameArg,
    games: Annotated[int, typer.Option("--games", "-n", help="number of games", min=1)] = 1000,
    players: Annotated[int | None, typer.Option("--players", "-p")] = None,
    bots: Annotated[str, typer.Option(help="one bot for every seat, or one per seat "
                                           "(comma-separated), e.g. heuristic,random,random")]
    = "random",
    seed: Annotated[int, typer.Option(help="run seed: same seed, same numbers")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="processes", min=1)] = 1,
    option: OptionOpt = None,
    out: Annotated[Path | None, typer.Option(
        help="per-game records, written as the games finish: .jsonl, .csv or .parquet")]
    = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the summary as JSON")] = False,
    ray: RayOpt = None,
) -> None:
    """Play bot games and print win rates (95% intervals), game length and scores."""
    from .. import simulate as sim
    from ..bots import expand_specs, make_bot
    from .workers import games_progress, open_workers

    try:
        spec = get_spec(game)
        g = spec.configure(players, parse_options(option))
        specs = expand_specs(bots, g.num_players)
        for s, b in enumerate(specs):  # fail early on a bad bot name
            make_bot(g, b, s, 0)
    except SpieltischError as e:
        fail(str(e))
    if out is not None:
        if out.suffix not in sim.RECORD_FORMATS:
            fail("--out must end in .jsonl, .csv or .parquet")
        check_writable(out, "--out")
    # tasks are made as they are sent and records go to disk and into the summary in
    # game order as they come: a million games never sit in memory
    tasks = sim.Tasks(game, g.num_players, g.options, specs, seed, games)
    summing = sim.Summary(g.num_players)
    with open_workers(jobs, ray) as workers, \
            games_progress(err, disable=as_json and not err.is_terminal) as progress:
        bar = progress.add_task(f"{game} ×{games}", total=games)
        try:
            with contextlib.ExitStack() as stack:
                writer = stack.enter_context(sim.RecordWriter(out)) if out else None
                for record in sim.stream(tasks, workers or sim.Processes(jobs),
                                         lambda k: progress.advance(bar, k)):
                    summing.add(record)
                    if writer:
                        writer.write(record)
        except SpieltischError as e:
            fail(str(e), 1)
        except OSError as e:
            fail(f"cannot write {out}: {e.strerror or e}", 1)
        except KeyboardInterrupt:
            progress.stop()
            fail(f"interrupted after {summing.games} games"
                 + (f" (written to {out})" if out else ""), 130)
    summary = summing.result()
    summary.update({"game": game, "players": g.num_players, "options": g.options,
                    "seat_bots": specs, "seed": seed})
    if as_json:
        print(json.dumps(summary, indent=1))
        return
    print_summary(summary)
    if out is not None:
        console.print(f"records written to {out}")


def print_summary(summary: dict[str, Any]) -> None:
    console.print(f"[bold]{summary['game']}[/], {summary['players']} players, "
                  f"{summary['games']} games, seed {summary['seed']}, options {summary['options']}")
    t = Table(title="Per seat")
    for col in ("seat", "bot", "wins", "win rate", "95% interval", "mean score", "sd",
                "mean place"):
        t.add_column(col, justify="right")
    for s in summary["seats"]:
        lo, hi = s["ci95"]
        t.add_row(str(s["seat"]), ",".join(s["bots"]), str(s["wins"]),
                  f"{s['win_rate']:.3f}", f"{lo:.3f}–{hi:.3f}", f"{s['score']['mean']:.2f}",
                  f"{s['score']['stdev']:.2f}", f"{s['mean_rank']:.2f}")
    console.print(t)
    if len(summary["bots"]) > 1:
        t = Table(title="Per bot (all its seats)")
        for col in ("bot", "seat-games", "wins", "win rate", "95% interval", "mean place"):
            t.add_column(col, justify="right")
        for b in summary["bots"]:
            lo, hi = b["ci95"]
            t.add_row(b["bot"], str(b["seat_games"]), str(b["wins"]), f"{b['win_rate']:.3f}",
                      f"{lo:.3f}–{hi:.3f}", f"{b['mean_rank']:.2f}")
        console.print(t)
    t = Table(title="Game length")
    for col in ("measure", "mean", "median", "p95"):
        t.add_column(col, justify="right")
    for k, v in summary["length"].items():
        t.add_row(k, f"{v['mean']:.1f}", f"{v['median']:.1f}", f"{v['p95']:.1f}")
    console.print(t)
    if summary["draws"]:
        console.print(f"games without a single winner: {summary['draws']}")


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="a replay file (JSON)", metavar="FILE")],
    as_json: Annotated[bool, typer.Option("--json", help="print the final full view and "
                                                         "result as JSON")] = False,
    narrate: Annotated[bool, typer.Option(
        "--narrate", help="tell every event, one line each, in your language")] = False,
    seat: Annotated[int | None, typer.Option(
        help="with --narrate: tell it as this seat saw it (default: a spectator)")] = None,
    position_at: Annotated[int | None, typer.Option(
        "--position-at", help="print the position after N actions (JSON) and stop",
        min=0)] = None,
    lang: LangOpt = None,
) -> None:
    """Re-apply a replay, verify it, and print the final result."""
    from .. import narration
    from ..replay import Replay, ReplayError
    from .terminal import seat_names, standings

    language = pick_language(lang)
    try:
        rep = Replay.load(file)
        if position_at is not None:
            if position_at > len(rep.actions):
                fail(f"--position-at {position_at}: the replay has only {len(rep.actions)} "
                     "actions")
            print(json.dumps(rep.run(upto=position_at).position(), indent=1,
                             ensure_ascii=False))
            return
        game = get_spec(rep.game).configure(rep.players, rep.options)
        if seat is not None and not 0 <= seat < game.num_players:
            fail(f"--seat must be between 0 and {game.num_players - 1}")
        names = seat_names(game.num_players, None, "")
        told = narration.context(game, names, language, seat)

        def tell(_seat: int, _action: int, events: list[Event]) -> None:
            for e in events:
                say(game.narrator().tell(e.for_seat(seat), told))

        if narrate:
            tell(-1, -1, list(rep.new_state().opening))
        state = rep.verify(on_action=tell if narrate else None)
    except ReplayError as e:
        fail(str(e), 1)
    except SpieltischError as e:
        fail(f"{file}: {e}", 1)
    result = state.result().to_json() if state.is_over() else None
    if narrate:
        if state.is_over():
            tr = translator(language, "cli", game.name, "core")
            say(standings(state.result(), names, tr))
        return
    if as_json:
        print(json.dumps({"game": rep.game, "actions": len(rep.actions),
                          "over": state.is_over(), "result": result,
                          "full_view": state.full_view()}, indent=1))
        return
    console.print(f"{rep.game}: {len(rep.actions)} actions re-applied and verified.")
    if result is None:
        console.print("The game is not over.")
    else:
        for s, (score, rank) in enumerate(zip(result["scores"], result["ranks"], strict=True)):
            name = rep.seats[s] if s < len(rep.seats) else f"seat {s}"
            console.print(f"  seat {s} ({name}): score {score:g}, place {rank}")
        console.print(f"Winner: seat {result['winner']}")


from .serve import register as _register_serve  # noqa: E402

_register_serve(app)


from .tournament import register as _register_tournament  # noqa: E402

_register_tournament(app)
from .ladder import register as _register_ladder  # noqa: E402

_register_ladder(app)
from .lab import register as _register_lab  # noqa: E402

_register_lab(app)


def main() -> None:  # pragma: no cover
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
