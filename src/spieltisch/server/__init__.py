"""The authoritative game server: tables, seats, WebSocket play, persistence.

``create_app(ServerConfig(...))`` gives the Starlette application;
``spieltisch serve`` runs it on uvicorn. The protocol is in ``docs/server.md``.
"""

from .app import create_app
from .config import ServerConfig

__all__ = ["ServerConfig", "create_app"]
