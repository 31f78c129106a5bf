"""``spieltisch serve``: run the game server on uvicorn."""

from __future__ import annotations

import os
from typing import Annotated

import typer


def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on", min=1, max=65535)] = 8000,
    db: Annotated[str | None, typer.Option(
        help="SQLAlchemy database URL (default: SQLite in the user's data directory)")] = None,
    grace: Annotated[float, typer.Option(
        help="seconds a disconnected seat waits before a bot plays for it")] = 30.0,
    time_scale: Annotated[float, typer.Option(
        help="multiplies the games' deadlines (1 = the rules' times)")] = 1.0,
    bot_delay: Annotated[float, typer.Option(help="pause before each bot action (s)")] = 0.5,
    move_clock: Annotated[float, typer.Option(
        help="seconds per move in games without deadlines of their own; when they pass, "
             "a bot makes that move (0: no clock)")] = 0.0,
    messages_per_second: Annotated[float, typer.Option(
        help="sustained WebSocket messages per second per connection")] = 20.0,
    max_tables_per_client: Annotated[int, typer.Option(
        help="unfinished tables one client address may create")] = 20,
    ws_deflate: Annotated[bool, typer.Option(
        help="offer WebSocket compression (permessage-deflate): less bandwidth, but "
             "about a quarter more server CPU per action and more memory per "
             "connection")] = False,
    log_level: Annotated[str, typer.Option(help="uvicorn log level")] = "warning",
) -> None:
    """Start the game server (tables, seats, real-time play over WebSockets)."""
    try:
        import uvicorn

        from ..server import ServerConfig, create_app
    except ImportError as e:  # pragma: no cover - depends on the install
        typer.echo(f"error: the server needs the 'server' extra "
                   f"(pip install 'spieltisch[server]'): {e}", err=True)
        raise typer.Exit(2) from None
    config = ServerConfig(db_url=db or "", grace_seconds=grace, time_scale=time_scale,
                          bot_delay=bot_delay, move_clock=move_clock,
                          messages_per_second=messages_per_second,
                          message_burst=max(60, int(messages_per_second * 3)),
                          max_tables_per_client=max_tables_per_client)
    url = config.resolved_db_url()
    config.db_url = url
    problem = _check_database(url)
    if problem:
        typer.echo(f"error: cannot use the database {url}: {problem}", err=True)
        raise typer.Exit(2)
    app = create_app(config)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    typer.echo(f"spieltisch server on http://{shown}:{port}/  (database: {url})")

    def run() -> None:
        uvicorn.run(app, host=host, port=port, log_level=log_level, ws_max_size=1 << 16,
                    ws_per_message_deflate=ws_deflate)

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


def _check_database(url: str) -> str | None:
    """Connect once before serving, so a bad ``--db`` is one clear line, not a traceback."""
    import sqlalchemy

    try:
        engine = sqlalchemy.create_engine(url)
        with engine.connect():
            pass
        engine.dispose()
    except Exception as e:  # any driver's error: report its first line
        lines = str(e).strip().splitlines()
        return lines[0] if lines else type(e).__name__
    return None


def register(app: typer.Typer) -> None:
    app.command()(serve)
