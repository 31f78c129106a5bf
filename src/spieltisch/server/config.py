"""Server settings; every limit is configurable."""

from __future__ import annotations

from dataclasses import dataclass


def default_db_url() -> str:
    """SQLite in the user's data directory (created if missing)."""
    from pathlib import Path

    import platformdirs

    path = Path(platformdirs.user_data_dir("spieltisch", appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path / 'server.sqlite3'}"


@dataclass
class ServerConfig:
    db_url: str = ""
    #: Prefix of the database tables (lets several servers or test runs share one database).
    table_prefix: str = "st_"
    #: Seconds a disconnected seat keeps its place before a bot plays for it.
    grace_seconds: float = 30.0
    #: The bot that plays for a disconnected seat.
    substitute_bot: str = "random"
    #: Multiplies every deadline the engine declares (tests use small values).
    time_scale: float = 1.0
    #: Per-move clock (seconds) for games that declare no deadlines of their own: when a
    #: seat the game waits for lets it pass, the substitute bot makes that one move.
    #: 0 = no clock. Multiplied by ``time_scale`` like the engine's deadlines.
    move_clock: float = 0.0
    #: Pause before each bot action (seconds); 0 = as soon as the loop allows.
    bot_delay: float = 0.0
    #: Largest accepted WebSocket message (bytes of text).
    max_message_bytes: int = 4096
    #: Sustained messages per second per connection, and the burst allowed above it.
    messages_per_second: float = 20.0
    message_burst: int = 60
    #: Unfinished tables one client address may have created.
    max_tables_per_client: int = 20
    #: Idempotence memory: client message ids remembered per seat.
    remembered_ids: int = 512
    #: Minutes a waiting table may go without anybody joining before it expires
    #: (listed as ``expired``, never started); 0 = never.
    waiting_expiry: float = 30.0

    def resolved_db_url(self) -> str:
        return self.db_url or default_db_url()
