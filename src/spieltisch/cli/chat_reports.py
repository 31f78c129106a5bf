"""``spieltisch db chat-reports``: the table chat's reported messages, for a moderator."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Annotated

import typer

from .serve import DbOpt, _db_engine, _first_line


def chat_reports(db: DbOpt = None,
                 limit: Annotated[int, typer.Option(min=1, help="How many, newest first")] = 50,
                 as_json: Annotated[bool, typer.Option("--json", help="One JSON object a line")]
                 = False) -> None:
    """List the reported chat messages, newest report first: when, the table, the
    message (its seat, name, account and words) and who reported it why. Changes
    nothing (see docs/server.md, "Table chat", for what a moderator does with them)."""
    url, engine = _db_engine(db)
    from ..server.chat import list_reports
    from ..server.config import ServerConfig

    try:
        reports = list_reports(engine, ServerConfig.table_prefix, limit)
    except Exception as e:
        typer.echo(f"error: cannot read the database {url}: {_first_line(e)}", err=True)
        raise typer.Exit(1) from None
    finally:
        engine.dispose()
    if not reports:
        typer.echo(f"{url}: no reported chat messages")
    for r in reports:
        if as_json:
            typer.echo(json.dumps(r, ensure_ascii=False))
            continue
        when = datetime.fromtimestamp(r["at"], UTC).strftime("%Y-%m-%d %H:%M UTC")
        words = f"[{r['phrase']}]" if r["phrase"] else repr(r["text"] or "")
        who = f"{r['name']!r} (seat {r['seat']}, account {r['account_id'] or '-'})" \
            if r["seat"] is not None else "(message not stored)"
        typer.echo(f"{when}  table {r['code']} message {r['message_id']}: {who}: {words}"
                   f"  reported by {r['reporter']}: {r['reason']!r}")
