"""Server settings; every limit is configurable."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


def default_db_url() -> str:
    """SQLite in the user's data directory, created if missing, for its owner only
    (mode 0700: the database holds every game's seed and log). ``OSError`` when the
    directory cannot be made."""
    from pathlib import Path

    import platformdirs

    path = Path(platformdirs.user_data_dir("spieltisch", appauthor=False))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.mkdir(mode=0o700, exist_ok=True)
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
    #: How fast bots answer: 1 = a person's pace, per level (``bots.pacing.TEMPI``: a bot's
    #: move shows 0.4-2.6 s after the change it answers), 0 = as soon as it has decided
    #: (tests), values between scale the delays.
    bot_timing: float = 0.0
    #: Seconds per move that a person's misclick guard may hold their move timer.
    guard_seconds: float = 15.0
    #: Out-of-turn actions arriving within this many seconds of each other are a race,
    #: decided by compensated arrival (docs/server.md, "Time"). Not scaled.
    race_window: float = 0.15
    #: Credit for network delay per player (lichess): the quota starts at
    #: ``lag_quota_start``, each action adds ``lag_quota_gain``, it never exceeds
    #: ``lag_quota_cap`` (seconds).
    lag_quota_start: float = 0.3
    lag_quota_gain: float = 0.1
    lag_quota_cap: float = 0.4
    #: Seconds between the server's pings of a seat's connection (they measure its lag).
    ping_interval: float = 5.0
    #: Seconds a connected person may take to press "I'm ready" before the table's clocks
    #: start without them (0: wait for them however long it takes).
    ready_timeout: float = 120.0
    #: Largest accepted WebSocket message (bytes of text).
    max_message_bytes: int = 4096
    #: Sustained messages per second per connection, and the burst allowed above it.
    messages_per_second: float = 20.0
    message_burst: int = 60
    #: ``state`` and ``lang`` requests per second per connection, together (a snapshot
    #: may be a long game's whole history; burst 2): more are not refused but coalesced
    #: into one ``state`` sent when the budget allows; 0 = no limit.
    snapshots_per_second: float = 1.0
    #: WebSockets open at once from one client address (past it a new one is closed
    #: with 1008 and ``too_many_sockets``); 0 = no limit.
    max_sockets_per_client: int = 50
    #: Spectators of one table at once (past it a spectator's ``hello`` is refused with
    #: ``too_many_spectators`` and its socket closed with 1008); 0 = no limit.
    max_spectators: int = 200
    #: Narrated histories a table keeps for its snapshots (per reader and language
    #: asked for; the least recently asked for goes first: ``server.history``).
    histories_per_table: int = 16
    #: Actions a table may reach at most, below its game's own bound
    #: (``GameSpec.table_max_actions``): there the table is abandoned (docs/server.md,
    #: "Length of a table"); 0 = each game's bound.
    max_table_actions: int = 0
    #: Steps one ``replay/steps`` page holds by default and at most (``?limit=``), and
    #: the largest answer (bytes) a page may be: past it, 413 ``too_large``.
    replay_page_steps: int = 200
    replay_max_steps: int = 1000
    replay_max_bytes: int = 8 << 20
    #: Threads that encode replays and replay pages (CPU work), apart from the store's
    #: (``store_threads``): replay requests never hold up the lobby's database work.
    replay_threads: int = 1
    #: Unfinished tables one client address may have created.
    max_tables_per_client: int = 20
    #: Idempotence memory: client message ids remembered per seat.
    remembered_ids: int = 512
    #: Minutes a waiting table may go without anybody joining before it expires
    #: (listed as ``expired``, never started); 0 = never.
    waiting_expiry: float = 30.0
    #: Seconds a finished game with people at it offers a rematch (``server.rematch``):
    #: meanwhile the table stays in memory (a cluster node keeps its lease); 0 = no
    #: rematch.
    rematch_seconds: float = 600.0
    #: Finished tables kept for their rematch offer at most (memory stays bounded: past
    #: it the oldest offer closes).
    max_rematching: int = 1000
    #: HTTP requests per second one client address may make on average, and the burst
    #: above it (a page load fetches some 20 files); 0 = no limit.
    http_requests_per_second: float = 20.0
    http_burst: int = 120
    #: Seats one client address may take per minute (joins), as a burst that refills at
    #: this rate; 0 = no limit.
    joins_per_minute: float = 30.0
    #: Origins (``https://cards.example.org``) whose pages may create or join tables and
    #: open WebSockets, besides the server's own (from the request's ``Host``).
    allowed_origins: list[str] = field(default_factory=list)
    #: Addresses of trusted proxies whose ``X-Forwarded-For`` / ``-Proto`` headers name
    #: the client (``*``: any); empty = trust no such header.
    forwarded_allow_ips: list[str] = field(default_factory=list)
    #: Threads that run the database work of the lobby (create, join, status, lists,
    #: recovery), so a slow query never stops the event loop.
    store_threads: int = 4
    #: The longest (s) an action's write waits for a lock or a statement before it fails
    #: for its table alone (PostgreSQL ``lock_timeout``/``statement_timeout``, SQLite's
    #: busy timeout): the player gets ``storage`` and sends it again (``store``).
    write_wait: float = 2.0
    #: Threads in which bots whose decisions are not quick think (a search bot), for the
    #: whole server; quick ones decide in a thread of their own (``server.thinking``).
    bot_threads: int = 2
    #: Seconds of wall time a bot decision may take at most (``server.thinking``): the
    #: bot is asked to answer at 80 % of it, and past it the decision is abandoned and
    #: the seat's quick fallback bot answers (docs/server.md, "Bot levels").
    bot_cap: float = 2.5
    #: Clients may ask for any bot spec (``bot:ismcts:200``), not only the levels
    #: ``easy``, ``medium`` and ``hard``, and stored specs are played as they are, not
    #: as their level: for a test or a lab on one's own machine, never a public server
    #: (a spec's budget is the client's to choose; the cap above still holds).
    any_bot_spec: bool = False
    #: Quick bots decide on the event loop itself: the least CPU, for a server with cores
    #: of its own (on cores that other work keeps busy, latency was worse).
    bot_inline: bool = False
    #: A cluster node (``docs/server.md``, "Cluster"): the Redis the nodes share; empty =
    #: a node of its own, as without a cluster.
    redis_url: str = ""
    #: The cluster's name: the prefix of its Redis keys and channels (``NAME:``), so that
    #: several clusters or test runs can share one Redis.
    cluster_name: str = "spieltisch"
    #: This node's id in the cluster (empty: host name, process id and a random part).
    node_id: str = ""
    #: A table lease's time to live (seconds): how long a dead owner's tables wait
    #: before another node takes them over.
    lease_seconds: float = 3.0
    #: Seconds between a node's rounds: renew its leases, refresh its lobby entries, look
    #: for tables without an owner.
    lease_renew: float = 0.5

    def resolved_db_url(self) -> str:
        return self.db_url or default_db_url()


def uvicorn_proxy_options(config: ServerConfig) -> dict[str, Any]:
    """uvicorn's proxy settings for ``config``: forwarded headers are believed only from
    the proxies named in ``forwarded_allow_ips`` (uvicorn itself would trust 127.0.0.1)."""
    if not config.forwarded_allow_ips:
        return {"proxy_headers": False}
    return {"proxy_headers": True, "forwarded_allow_ips": list(config.forwarded_allow_ips)}
