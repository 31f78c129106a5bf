"""``spieltisch serve``: run the game server on uvicorn."""

from __future__ import annotations

import asyncio
import errno
import gc
import os
import socket
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine


def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(
        help="port to listen on (0: any free port; the start-up line names it)",
        min=0, max=65535)] = 8000,
    db: Annotated[str | None, typer.Option(
        help="SQLAlchemy database URL (default: SQLite in the user's data directory)")] = None,
    grace: Annotated[float, typer.Option(
        help="seconds a disconnected seat waits before a bot plays for it")] = 30.0,
    time_scale: Annotated[float, typer.Option(
        help="multiplies the games' deadlines (1 = the rules' times)")] = 1.0,
    bot_timing: Annotated[float, typer.Option(
        help="how fast bots answer: 1 = a person's pace for their level (0.4-2.6 s), "
             "0 = at once, 0.5 = twice as fast", min=0.0)] = 1.0,
    bot_cap: Annotated[float, typer.Option(
        help="seconds of wall time one bot decision may take at most; past it a quick "
             "fallback bot answers for it", min=0.5)] = 2.5,
    write_wait: Annotated[float, typer.Option(
        help="seconds an action's database write may wait for a lock before it fails "
             "for its table alone (the player sends it again)", min=0.1)] = 2.0,
    move_clock: Annotated[float, typer.Option(
        help="seconds per move in games without deadlines of their own; when they pass, "
             "a bot makes that move (0: no clock)")] = 0.0,
    messages_per_second: Annotated[float, typer.Option(
        help="sustained WebSocket messages per second per connection")] = 20.0,
    max_tables_per_client: Annotated[int, typer.Option(
        help="unfinished tables one client address may create")] = 20,
    waiting_expiry: Annotated[float, typer.Option(
        help="minutes a waiting table may go without anybody joining before it expires "
             "(0: never)", min=0)] = 30.0,
    rematch_seconds: Annotated[float, typer.Option(
        help="seconds a finished game with people at it offers a rematch (0: none)",
        min=0)] = 600.0,
    http_requests_per_second: Annotated[float, typer.Option(
        help="sustained HTTP requests per second per client address, with a burst of six "
             "times as many (0: no limit)", min=0)] = 20.0,
    joins_per_minute: Annotated[float, typer.Option(
        help="seats one client address may take per minute (0: no limit)", min=0)] = 30.0,
    max_sockets_per_client: Annotated[int, typer.Option(
        help="WebSockets one client address may have open at once (0: no limit)",
        min=0)] = 50,
    max_spectators: Annotated[int, typer.Option(
        help="spectators one table may have at once (0: no limit)", min=0)] = 200,
    origin: Annotated[list[str] | None, typer.Option(
        help="another origin (https://cards.example.org) whose pages may create and join "
             "tables and play; repeatable (the server's own origin always may)")] = None,
    forwarded_allow_ips: Annotated[str, typer.Option(
        help="comma-separated addresses of trusted proxies whose X-Forwarded-For and "
             "X-Forwarded-Proto name the client ('*': any); empty: trust none")] = "",
    ws_deflate: Annotated[bool, typer.Option(
        help="offer WebSocket compression (permessage-deflate): less bandwidth, but "
             "about a quarter more server CPU per action and more memory per "
             "connection")] = False,
    gc_tune: Annotated[bool, typer.Option(
        help="keep the start-up heap out of the garbage collector's scans (shorter "
             "pauses of every table at once)")] = True,
    redis: Annotated[str | None, typer.Option(
        help="run as a node of a cluster: the Redis URL the nodes share "
             "(redis://127.0.0.1:6379/0); needs a shared --db (PostgreSQL)")] = None,
    cluster: Annotated[str, typer.Option(
        help="the cluster's name: the prefix of its Redis keys")] = "spieltisch",
    node: Annotated[str, typer.Option(
        help="this node's id in the cluster (default: host, process id, random)")] = "",
    lease: Annotated[float, typer.Option(
        help="seconds a table's lease lives: how soon a dead node's tables move",
        min=2.0)] = 3.0,
    loop: Annotated[str, typer.Option(
        help="event loop: auto (uvloop when installed), uvloop or asyncio")] = "auto",
    log_level: Annotated[str, typer.Option(help="uvicorn log level")] = "warning",
    policy_level: Annotated[list[str] | None, typer.Option(
        metavar="NAME=PATH",
        help="offer a learned policy file (.npz, docs/rl.md) as the bot level NAME in the "
             "game it was trained for; repeatable (one file per game and name)")] = None,
) -> None:
    """Start the game server (tables, seats, real-time play over WebSockets)."""
    try:
        import alembic  # noqa: F401 - the schema's migrations, run at start
        import uvicorn

        from ..server import ServerConfig, create_app
        from ..server.config import uvicorn_proxy_options
    except ImportError as e:  # pragma: no cover - depends on the install
        typer.echo(f"error: the server needs the 'server' extra "
                   f"(pip install 'spieltisch[server]'): {e}", err=True)
        raise typer.Exit(2) from None
    for item in policy_level or []:
        from ..bots.levels import add_policy_level
        from ..core.game import SpieltischError

        name, eq, path = item.partition("=")
        try:
            if not eq:
                raise SpieltischError(f"--policy-level takes NAME=PATH, not {item!r}")
            add_policy_level(name.strip(), path.strip())
        except SpieltischError as e:
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(2) from None
    config = ServerConfig(db_url=db or "", grace_seconds=grace, time_scale=time_scale,
                          bot_timing=bot_timing, bot_cap=bot_cap, move_clock=move_clock,
                          write_wait=write_wait,
                          messages_per_second=messages_per_second,
                          message_burst=max(60, int(messages_per_second * 3)),
                          max_tables_per_client=max_tables_per_client,
                          waiting_expiry=waiting_expiry, rematch_seconds=rematch_seconds,
                          http_requests_per_second=http_requests_per_second,
                          http_burst=max(60, int(http_requests_per_second * 6)),
                          joins_per_minute=joins_per_minute,
                          max_sockets_per_client=max_sockets_per_client,
                          max_spectators=max_spectators,
                          allowed_origins=list(origin or []),
                          forwarded_allow_ips=[a.strip() for a in forwarded_allow_ips.split(",")
                                               if a.strip()],
                          redis_url=redis or "", cluster_name=cluster, node_id=node,
                          lease_seconds=lease, lease_renew=min(0.5, lease / 6))
    try:
        url = config.resolved_db_url()
    except OSError as e:
        typer.echo(f"error: cannot create the data directory {e.filename or ''}: "
                   f"{e.strerror or e} (choose another place with --db)", err=True)
        raise typer.Exit(2) from None
    config.db_url = url
    problem = _check_database(url, config.table_prefix)
    if problem:
        typer.echo(f"error: cannot use the database {url}: {problem}", err=True)
        raise typer.Exit(2)
    if redis is not None:
        problem = _check_redis(redis, url)
        if problem:
            typer.echo(f"error: cannot run as a cluster node on {redis}: {problem}", err=True)
            raise typer.Exit(2)
    if loop not in ("auto", "uvloop", "asyncio"):
        typer.echo(f"error: --loop must be auto, uvloop or asyncio, not {loop!r}", err=True)
        raise typer.Exit(2)
    server: uvicorn.Server | None = None

    def started() -> None:
        # what really runs, read from the running loop and uvicorn's loaded protocols
        # (uvloop and httptools are used only when installed: the 'server' extra)
        assert server is not None
        cfg = server.config
        running = type(asyncio.get_running_loop())
        typer.echo(f"event loop {running.__module__}.{running.__name__}, HTTP "
                   f"{cfg.http_protocol_class.__name__}, WebSocket "
                   f"{getattr(cfg.ws_protocol_class, '__name__', None)}")
        if gc_tune:
            tune_gc()

    sock = _listen(host, port)
    port = sock.getsockname()[1]
    app = create_app(config, on_start=started)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    from .. import build

    typer.echo(f"spieltisch server on http://{shown}:{port}/  (database: {url}; rules: "
               f"{build()})")
    class Node(uvicorn.Server):
        """uvicorn's server; a cluster node hands its tables to the others before
        uvicorn closes its connections (SIGTERM: a rolling restart loses nothing)."""

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            lobby = getattr(app.state, "lobby", None)
            if lobby is not None:
                await lobby.drain()
            await super().shutdown(sockets)

    server = Node(uvicorn.Config(
        app, host=host, port=port, log_level=log_level, ws_max_size=1 << 16,
        ws_per_message_deflate=ws_deflate, loop=loop, **uvicorn_proxy_options(config)))

    def run() -> None:
        assert server is not None
        server.run(sockets=[sock])

    profile_to = os.environ.get("SPIELTISCH_PROFILE")
    if not profile_to:
        run()
        return
    # where the server's time goes (benchmarks/server_load.py --profile): cProfile of the
    # event loop's thread, written when the server stops (SIGTERM / Ctrl-C)
    import cProfile
    import signal

    # uvicorn re-raises SIGTERM after its graceful shutdown; a no-op handler lets this
    # function return and write the profile
    signal.signal(signal.SIGTERM, lambda *_: None)
    prof = cProfile.Profile()
    prof.enable()
    try:
        run()
    finally:
        prof.disable()
        prof.dump_stats(profile_to)


def _check_redis(url: str, db_url: str) -> str | None:
    """Why this node cannot join a cluster on the Redis at ``url`` with the database
    ``db_url`` (None: it can): one clear line."""
    if db_url.startswith("sqlite"):
        return "the nodes need one shared database: give --db postgresql+psycopg://…"
    try:
        import redis
    except ImportError:  # pragma: no cover - depends on the install
        return "the redis client is missing (pip install 'spieltisch[server-cluster]')"
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=5)
        try:
            client.ping()
        finally:
            client.close()
    except Exception as e:  # a bad URL, nobody listening, refused authentication
        lines = str(e).strip().splitlines()
        return lines[0] if lines else type(e).__name__
    return None


def tune_gc() -> None:
    """Keep the start-up heap out of the garbage collector's scans.

    A collection stops the event loop, so every table waits. The modules, classes and
    other objects of the start-up (some 70 MiB) live as long as the process; frozen,
    a full collection scans only the live tables' objects (in
    ``benchmarks/server_load.py``, 250 tables: 137 ms of CPU per full collection
    before, none in the same 40 s after). CPython's thresholds stay: larger young
    generations (10,000 objects) made each pause longer (25-60 ms of CPU instead of
    at most 4-9 ms), which is what the latency of the slowest actions is made of.
    """
    gc.collect()
    gc.freeze()


def _listen(host: str, port: int) -> socket.socket:
    """Bind the listening socket before anything is announced, so that a busy port or a
    bad address is one clear error (and ``--port 0`` can report the port it got)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        typer.echo(f"error: cannot listen on {host}: {e.strerror}", err=True)
        raise typer.Exit(2) from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(2048)
    except OSError as e:
        sock.close()
        reason = ("the port is already in use (is another server running? choose another "
                  "with --port)" if e.errno == errno.EADDRINUSE else e.strerror or str(e))
        typer.echo(f"error: cannot listen on {host}:{port}: {reason}", err=True)
        raise typer.Exit(2) from None
    sock.set_inheritable(True)
    return sock


def _check_database(url: str, prefix: str) -> str | None:
    """Open the store and take its write lock once before serving, so that a bad
    ``--db``, a database that cannot be written (a read-only file or folder, a full
    disk) is one clear line, not a traceback."""
    from ..server.store import Store

    try:
        store = Store(url, prefix)
        try:
            with store.engine.connect() as conn:
                if url.startswith("sqlite"):  # SQLite writes lazily: ask for the lock now
                    conn.exec_driver_sql("BEGIN IMMEDIATE")
                    conn.exec_driver_sql("ROLLBACK")
        finally:
            store.close()
    except Exception as e:  # any driver's error: report its first line
        lines = str(e).strip().splitlines()
        problem = lines[0] if lines else type(e).__name__
        if url.startswith("sqlite"):
            from sqlalchemy.engine import make_url

            folder = os.path.dirname(os.path.abspath(make_url(url).database or "."))
            problem += f" (can this user write to {folder}, and is there room on its disk?)"
        return problem
    return None


db_app = typer.Typer(help="The server's database: its schema and migrations.",
                     no_args_is_help=True, rich_markup_mode=None)

DbOpt = Annotated[str | None, typer.Option(
    help="SQLAlchemy database URL (default: the server's SQLite in the user's data "
         "directory)")]


def _db_engine(db: str | None) -> tuple[str, Engine]:
    """The URL (its password hidden) and an engine for ``--db``, or one clear error line
    and exit 2."""
    try:
        from sqlalchemy.engine import make_url

        from ..server import migrate  # noqa: F401 - Alembic, checked here
        from ..server.config import default_db_url
        from ..server.store import make_engine
    except ImportError as e:  # pragma: no cover - depends on the install
        typer.echo(f"error: the database commands need the 'server' extra "
                   f"(pip install 'spieltisch[server]'): {e}", err=True)
        raise typer.Exit(2) from None
    try:
        url = db or default_db_url()
    except OSError as e:
        typer.echo(f"error: cannot create the data directory {e.filename or ''}: "
                   f"{e.strerror or e} (choose another place with --db)", err=True)
        raise typer.Exit(2) from None
    try:
        shown = make_url(url).render_as_string(hide_password=True)
        return shown, make_engine(url)
    except Exception as e:  # a malformed URL, a driver that is not installed
        typer.echo(f"error: cannot use the database {url}: {_first_line(e)}", err=True)
        raise typer.Exit(2) from None


def _first_line(e: BaseException) -> str:
    lines = str(e).strip().splitlines()
    return lines[0] if lines else type(e).__name__


@db_app.command("upgrade")
def db_upgrade(db: DbOpt = None) -> None:
    """Bring the database's schema to the newest revision (the server does it when it
    starts; this does it alone, e.g. before a rolling restart)."""
    url, engine = _db_engine(db)
    from ..server import migrate
    from ..server.config import ServerConfig

    prefix = ServerConfig.table_prefix
    try:
        before = migrate.current(engine, prefix)
        migrate.upgrade(engine, prefix)
    except Exception as e:  # nobody listening, refused, read-only, a failed migration
        typer.echo(f"error: cannot upgrade the database {url}: {_first_line(e)}", err=True)
        raise typer.Exit(1) from None
    finally:
        engine.dispose()
    head = migrate.head()
    if before == head:
        typer.echo(f"{url}: already at the newest revision ({head})")
    else:
        typer.echo(f"{url}: upgraded from {before or 'no recorded revision'} to {head}")


@db_app.command("current")
def db_current(db: DbOpt = None) -> None:
    """Print the database's schema revision and the newest one; exit 1 if it is behind."""
    url, engine = _db_engine(db)
    from ..server import migrate
    from ..server.config import ServerConfig

    try:
        state = migrate.describe(engine, ServerConfig.table_prefix)
    except Exception as e:
        typer.echo(f"error: cannot read the database {url}: {_first_line(e)}", err=True)
        raise typer.Exit(1) from None
    finally:
        engine.dispose()
    at = state["current"] or "no recorded revision (empty, or made before migrations)"
    typer.echo(f"{url}: at {at}, newest {state['head']}"
               + ("" if state["up_to_date"] else " (run: spieltisch db upgrade)"))
    if not state["up_to_date"]:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    from .chat_reports import chat_reports  # a moderator's list (server/chat.py)

    db_app.command("chat-reports")(chat_reports)
    app.command()(serve)
    app.add_typer(db_app, name="db")
