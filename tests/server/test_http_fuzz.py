"""Fuzzing the HTTP API from its OpenAPI description: no request gives a 500 or a traceback.

Every operation of ``/api/openapi.json`` is called with path parameters, query parameters
and bodies drawn by Hypothesis from the description: each property of a body either of
the type the schema names or of any other (NaN, infinities, huge numbers, deep nesting,
lone surrogates, text that is not UTF-8). Whatever comes, the answer is below 500, an
error is the documented ``{"error", "message"}``, nothing is logged as an error, and the
server goes on serving (the WebSocket fuzz is ``test_fuzz.py``).
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spieltisch.core import game_names, get_spec
from spieltisch.server import ServerConfig
from spieltisch.server.openapi import SCHEMA

from .helpers import TIMEOUT, ServerThread, create_table, unique_prefix

#: Stands for a deeply nested array in a drawn value; replaced in the encoded text.
DEEP = "\x00deep\x00"

#: Values that broke servers before: NaN, infinities, huge numbers, deep nesting, lone
#: surrogates (and a pair that is a real character), long text.
hostile = st.sampled_from([math.nan, math.inf, -math.inf, 2**63, -(2**63) - 1, 10**400,
                           True, "\ud800", "a\udfffb", "\udbff\udc00", "€" * 40, "x" * 5000,
                           DEEP])
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=30), hostile)
anything = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                        | st.dictionaries(st.text(max_size=10), inner, max_size=4),
                        max_leaves=10)
#: Option names of the games, so that drawn options reach the checks of their values.
OPTION_NAMES = sorted({o.name for g in game_names() for o in get_spec(g).options})


def resolve(schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if ref is None:
        return schema
    return resolve(SCHEMA["components"]["schemas"][ref.rsplit("/", 1)[1]])


def typed(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values of the type ``schema`` names, with values that exist in this server mixed in
    (game names, seat specs), so that the fuzz reaches past the first check."""
    schema = resolve(schema)
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if isinstance(kind, list):
        return st.one_of(*(typed({**schema, "type": k}) for k in kind))
    if kind == "string":
        return st.sampled_from(["hockey", "president", "hoax", "human", "bot:easy", "bot:x",
                                "full", "spectator", "1", "-1", "3C", "de"]) | st.text()
    if kind == "integer":
        return st.integers(min_value=-3, max_value=10) | st.integers()
    if kind == "boolean":
        return st.booleans()
    if kind == "array":
        return st.lists(typed(schema.get("items", {})), max_size=8)
    if kind == "object" and "properties" not in schema:
        return st.dictionaries(st.sampled_from(OPTION_NAMES) | st.text(max_size=10),
                               hostile | anything, max_size=3)
    if kind == "object":
        return body(schema)
    return anything


def body(schema: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """An object with some of the schema's properties, each of its type or of any other,
    and now and then a key the schema does not know."""
    schema = resolve(schema)
    props = schema.get("properties", {})
    return st.fixed_dictionaries(
        {}, optional={name: typed(p) | hostile | anything for name, p in props.items()}
        | {"x-unknown": anything})


def encoded(value: Any) -> bytes:
    """JSON as Python writes it (NaN and Infinity included), deep nesting spliced in."""
    text = json.dumps(value, allow_nan=True)
    return text.replace(json.dumps(DEEP)[1:-1], "[" * 3000 + "]" * 3000).encode()


OPERATIONS = [(path, method, op) for path, item in SCHEMA["paths"].items()
              for method, op in item.items()]


def quoted(text: str) -> str:
    """``text`` percent-encoded as UTF-8 (a lone surrogate as the bytes Python would write)."""
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


@st.composite
def requests(draw: st.DrawFn, codes: list[str]) -> tuple[str, str, bytes | None]:
    """One request: method, path with its query, and body, for an operation of the schema."""
    path, method, op = draw(st.sampled_from(OPERATIONS))
    query: list[str] = []
    for param in op.get("parameters", []):
        value = draw(st.sampled_from([*codes, "NOSUCH", "hockey", "de"])
                     | st.text(max_size=20) | typed(param["schema"]).map(str)
                     | hostile.map(str))
        if param["in"] == "path":
            path = path.replace("{" + param["name"] + "}", quoted(value) or "x")
        elif draw(st.booleans()):
            query.append(f"{param['name']}={quoted(value)}")
    if query:
        path += "?" + "&".join(query)
    raw: bytes | None = None
    if "requestBody" in op:
        schema = op["requestBody"]["content"]["application/json"]["schema"]
        raw = draw(body(schema).map(encoded) | anything.map(encoded)
                   | st.sampled_from([b"", b"\xff\xfe{", b"[" * 16000, b"nul", b"[]",
                                     b'{"name": "\\ud800"}', b'{"seat": true}']))
    return method.upper(), path, raw


class Errors(logging.Handler):
    """Collects every record of level ERROR or above."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerThread,
                                                                      list[str], Errors]]:
    db = tmp_path_factory.mktemp("db") / "http-fuzz.sqlite3"
    cfg = ServerConfig(db_url=f"sqlite:///{db}", table_prefix=unique_prefix(),
                       grace_seconds=1000, http_requests_per_second=0, joins_per_minute=0,
                       max_tables_per_client=100_000)
    errors = Errors()
    loggers = [logging.getLogger(name) for name in ("uvicorn", "uvicorn.error", "spieltisch")]
    for logger in loggers:
        logger.addHandler(errors)
    try:
        with ServerThread(cfg) as server:
            # a finished game, so that replay and its steps answer with content too
            code = create_table(server.base, "hockey", ["bot:easy", "bot:easy"], seed=2)["code"]
            while httpx.get(f"{server.base}/api/tables/{code}",
                            timeout=TIMEOUT).json()["status"] != "over":
                time.sleep(0.05)
            # and a table with eight free seats, so that joins get past the first checks
            waiting = create_table(server.base, "hoax", ["human"] * 8, players=8)["code"]
            yield server, [code, waiting], errors
    finally:
        for logger in loggers:
            logger.removeHandler(errors)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_no_request_gives_a_500(served: tuple[ServerThread, list[str], Errors],
                                data: st.DataObject) -> None:
    server, codes, errors = served
    method, path, raw = data.draw(requests(codes))
    r = httpx.request(method, server.base + path, content=raw,
                      headers={"content-type": "application/json"}, timeout=TIMEOUT)
    assert r.status_code < 500, (method, path, raw[:300] if raw else raw, r.text)
    if r.status_code >= 400 and r.headers.get("content-type") == "application/json":
        problem = r.json()
        assert isinstance(problem["error"], str) and isinstance(problem["message"], str)
    assert not errors.records, [errors.format(rec) for rec in errors.records]


def test_the_server_still_serves_after_the_fuzz(
        served: tuple[ServerThread, list[str], Errors]) -> None:
    server, codes, errors = served
    assert httpx.get(server.base + "/api/games", timeout=TIMEOUT).status_code == 200
    assert httpx.get(server.base + "/api/tables", timeout=TIMEOUT).status_code == 200
    assert httpx.get(f"{server.base}/api/tables/{codes[0]}",
                     timeout=TIMEOUT).json()["status"] == "over"
    table = create_table(server.base, "hockey", ["human", "bot:easy"])
    assert table["status"] == "waiting" and not errors.records
