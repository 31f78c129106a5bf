"""Reading what clients send: request bodies up to a byte limit, and strict JSON.

Everything a client sends passes here before any other code sees it, so that the rest
of the server may assume real JSON: no ``NaN`` or ``Infinity`` (Python's ``json``
accepts them, JSON does not), no nesting deep enough to exhaust the stack, and no
string with a lone surrogate (``"\\ud800"`` decodes to text that cannot be written as
UTF-8: not to the database, not into a reply).
"""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import ClientDisconnect, Request


class BadInput(Exception):
    """What a client sent cannot be used; ``code`` is the protocol's error code
    (``malformed``, ``too_large``) and the message an English sentence."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _no_constant(name: str) -> Any:
    raise BadInput("malformed", f"{name} is not a JSON value")


def _has_lone_surrogate(value: Any) -> bool:
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return True
        return False
    if isinstance(value, dict):
        return any(_has_lone_surrogate(k) or _has_lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_lone_surrogate(v) for v in value)
    return False


def parse_json(text: str | bytes) -> Any:
    """``text`` as JSON, strictly; ``BadInput("malformed", …)`` for anything else."""
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except BadInput:
        raise
    except RecursionError:
        raise BadInput("malformed", "the JSON is nested too deeply") from None
    except (ValueError, UnicodeDecodeError):  # JSONDecodeError is a ValueError
        raise BadInput("malformed", "not valid JSON") from None
    # a lone surrogate can only come from a \u escape: skip the walk when there is none
    escaped = "\\u" in text if isinstance(text, str) else b"\\u" in text
    if escaped and _has_lone_surrogate(value):
        raise BadInput("malformed", "a string holds a lone surrogate (not UTF-8 text)")
    return value


async def read_body(request: Request, limit: int) -> bytes:
    """The request's body, read as it streams in and given up as soon as it passes
    ``limit`` bytes (``BadInput("too_large", …)``): a client cannot make the server hold
    more than ``limit`` bytes of it, whether it announces a length or sends chunks."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise BadInput("too_large", f"the body is over {limit} bytes")
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise BadInput("too_large", f"the body is over {limit} bytes")
            chunks.append(chunk)
    except ClientDisconnect:
        raise BadInput("malformed", "the client went away before the body ended") from None
    return b"".join(chunks)


def over_limit(text: str, limit: int) -> bool:
    """Whether ``text`` takes more than ``limit`` bytes in UTF-8 (the limits count bytes,
    not characters). A character takes one to four bytes, so only text between a
    quarter of the limit and the limit in length needs encoding to tell."""
    if len(text) > limit:
        return True
    return len(text) * 4 > limit and len(text.encode("utf-8", "surrogatepass")) > limit


__all__ = ["BadInput", "over_limit", "parse_json", "read_body"]
