"""OpenAPI 3.1 description of the HTTP lobby API (served at ``/api/openapi.json``)."""

from __future__ import annotations

from typing import Any

from .account_routes import ACCOUNT_PATHS
from .passkey_routes import PASSKEY_PATHS

_ERROR = {"$ref": "#/components/schemas/Error"}
_TABLE = {"$ref": "#/components/schemas/Table"}


def _resp(schema: dict[str, Any], desc: str = "ok") -> dict[str, Any]:
    return {"description": desc, "content": {"application/json": {"schema": schema}}}


_ERRORS = {"400": _resp(_ERROR, "bad request"),
           "403": _resp(_ERROR, "a page of another origin, or a private practice table"),
           "404": _resp(_ERROR, "no such table"),
           "409": _resp(_ERROR, "conflict (full, taken, expired, not over, broken)"),
           "413": _resp(_ERROR, "body too large"),
           "429": _resp(_ERROR, "too many tables, joins or requests from this address"),
           "503": _resp(_ERROR, "the database is not available")}
_CODE = [{"name": "code", "in": "path", "required": True, "schema": {"type": "string"}}]
_NAME = [{"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}]
#: ``?lang=``: the language of translated texts (else ``Accept-Language``; unknown: en).
_LANG = [{"name": "lang", "in": "query", "required": False,
          "schema": {"enum": ["en", "de", "nl"]}}]
_TEXT = {"description": "markdown", "content": {"text/markdown": {"schema": {"type": "string"}}}}

SCHEMA: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "spieltisch lobby", "version": "1"},
    "paths": {
        "/api/games": {"get": {
            "summary": "Games, player counts, options (labels translated) and bot levels",
            "parameters": _LANG,
            "responses": {"200": _resp({"type": "array", "items": {
                "$ref": "#/components/schemas/Game"}})}}},
        "/api/games/{name}/guide": {"get": {
            "summary": "The player guide (how to play) in a language", "parameters": _NAME + _LANG,
            "responses": {"200": _TEXT, "404": _resp(_ERROR, "no such game")}}},
        "/api/games/{name}/rules": {"get": {
            "summary": "The rules: the implementer's (English, the default) or, with "
                       "for=player, the full rules as a player reads them in a language",
            "description": "for=player: English where the language has none, the short "
                           "guide where the game has no full rules; Content-Language "
                           "names the language served. lang is ignored for the "
                           "implementer's rules.",
            "parameters": _NAME + _LANG + [
                {"name": "for", "in": "query", "required": False,
                 "schema": {"enum": ["implementer", "player"], "default": "implementer"}}],
            "responses": {"200": _TEXT, "400": _resp(_ERROR, "'for' is neither value"),
                          "404": _resp(_ERROR, "no such game")}}},
        "/api/i18n/{lang}": {"get": {
            "summary": "The browser client's texts in a language (cacheable, ETag); with "
                       "game, that game's browser texts too",
            "parameters": [{"name": "lang", "in": "path", "required": True,
                            "schema": {"enum": ["en", "de", "nl"]}},
                           {"name": "game", "in": "query", "required": False,
                            "schema": {"type": "string"}}],
            "responses": {"200": _resp({"type": "object", "required": ["lang", "messages"],
                                        "properties": {"lang": {"type": "string"},
                                                       "messages": {"type": "object"}}}),
                          "304": {"description": "not modified"},
                          "404": _resp(_ERROR, "no such language or game")}}},
        "/api/tables": {
            "get": {"summary": "Live tables and the latest finished or expired ones",
                    "parameters": _LANG,
                    "responses": {"200": _resp({"type": "array", "items": _TABLE})}},
            "post": {"summary": "Create a table",
                     "requestBody": {"required": True, "content": {"application/json": {
                         "schema": {"$ref": "#/components/schemas/CreateTable"}}}},
                     "responses": {"201": _resp(_TABLE), **_ERRORS}}},
        "/api/tables/{code}": {"get": {"summary": "Table status", "parameters": _CODE,
                                       "responses": {"200": _resp(_TABLE), **_ERRORS}}},
        "/api/tables/{code}/join": {"post": {
            "summary": "Take a free human seat; returns the secret seat token",
            "parameters": _CODE,
            "requestBody": {"content": {"application/json": {"schema": {
                "type": "object", "properties": {
                    "name": {"type": "string", "maxLength": 64},
                    "seat": {"type": "integer", "minimum": 0}}}}},
                "description": "at most 16 KiB"},
            "responses": {"201": _resp({"type": "object", "required": ["seat", "token"],
                                        "properties": {"code": {"type": "string"},
                                                       "seat": {"type": "integer"},
                                                       "token": {"type": "string"},
                                                       "ws": {"type": "string"}}}),
                          **_ERRORS}}},
        "/api/tables/{code}/chat/{id}/report": {"post": {
            "summary": "Report a chat message of the table (docs/server.md, Table chat); "
                       "once per reporter and message",
            "parameters": _CODE + [{"name": "id", "in": "path", "required": True,
                                    "schema": {"type": "integer", "minimum": 1}}],
            "requestBody": {"content": {"application/json": {"schema": {
                "type": "object", "properties": {
                    "reason": {"type": "string", "maxLength": 200}}}}}},
            "responses": {"201": _resp({"type": "object", "required": ["reported"],
                                        "properties": {"reported": {"type": "integer"}}}),
                          **_ERRORS}}},
        "/api/accounts/{name}": {"get": {
            "summary": "A player's profile: ratings per game and player count, and record "
                       "(docs/server.md, Ratings)", "parameters": _NAME + _LANG,
            "responses": {"200": _resp({"type": "object"}), **_ERRORS}}},
        "/api/leaderboard/{game}": {"get": {
            "summary": "Ratings of a game and player count, best conservative rating "
                       "(mu - 3 sigma) first",
            "parameters": [{"name": "game", "in": "path", "required": True,
                            "schema": {"type": "string"}},
                           {"name": "players", "in": "query", "required": False,
                            "schema": {"type": "integer"}}] + _LANG,
            "responses": {"200": _resp({"type": "object"}), **_ERRORS}}},
        # meeting people and a person's games (meeting.py, my_games.py; docs/server.md,
        # "History and meeting people")
        "/api/open-tables": {"get": {
            "summary": "Tables strangers can join: waiting, a free seat, not practice",
            "parameters": [{"name": "game", "in": "query", "required": False,
                            "schema": {"type": "string"}},
                           {"name": "players", "in": "query", "required": False,
                            "schema": {"type": "integer"}}] + _LANG,
            "responses": {"200": _resp({"type": "array", "items": {"type": "object"}}),
                          **_ERRORS}}},
        "/api/quick-join": {"post": {
            "summary": "A seat at the oldest open table of a game (404 no_open_table)",
            "requestBody": {"content": {"application/json": {"schema": {
                "type": "object", "required": ["game"], "properties": {
                    "game": {"type": "string"}, "players": {"type": "integer"},
                    "name": {"type": "string", "maxLength": 64},
                    "skip": {"type": "array", "items": {"type": "string"}}}}}}},
            "responses": {"201": _resp({"type": "object"}), **_ERRORS}}},
        "/api/waiting": {"post": {
            "summary": "Wait for people to play a game with; returns a waiting token",
            "requestBody": {"content": {"application/json": {"schema": {
                "type": "object", "required": ["game"], "properties": {
                    "game": {"type": "string"}, "players": {"type": "integer"},
                    "name": {"type": "string", "maxLength": 64}}}}}},
            "responses": {"201": _resp({"type": "object"}), **_ERRORS}}},
        "/api/waiting/poll": {"post": {
            "summary": "Seated (code, seat, token), or still waiting after about 25 s",
            "requestBody": {"content": {"application/json": {"schema": {
                "type": "object", "required": ["waiting_token"],
                "properties": {"waiting_token": {"type": "string"}}}}}},
            "responses": {"200": _resp({"type": "object"}), **_ERRORS}}},
        "/api/waiting/leave": {"post": {
            "summary": "Leave the waiting list",
            "requestBody": {"content": {"application/json": {"schema": {
                "type": "object", "required": ["waiting_token"],
                "properties": {"waiting_token": {"type": "string"}}}}}},
            "responses": {"200": _resp({"type": "object"}), **_ERRORS}}},
        "/api/me/games": {"get": {
            "summary": "The signed-in person's games, newest first (401 signed_out)",
            "parameters": [{"name": k, "in": "query", "required": False,
                            "schema": {"type": t}}
                           for k, t in (("game", "string"), ("result", "string"),
                                        ("opponent", "string"), ("limit", "integer"),
                                        ("offset", "integer"))] + _LANG,
            "responses": {"200": _resp({"type": "object"}), **_ERRORS}}},
        "/api/accounts/{name}/games": {"get": {
            "summary": "Anyone's games but their practice tables, newest first",
            "parameters": _NAME + [{"name": k, "in": "query", "required": False,
                                    "schema": {"type": t}}
                                   for k, t in (("game", "string"), ("result", "string"),
                                                ("opponent", "string"),
                                                ("limit", "integer"),
                                                ("offset", "integer"))] + _LANG,
            "responses": {"200": _resp({"type": "object"}), **_ERRORS}}},
        "/api/tables/{code}/replay": {"get": {
            "summary": "Replay file of a finished game (docs/replays.md)", "parameters": _CODE,
            "responses": {"200": _resp({"type": "object"}), **_ERRORS}}},
        "/api/tables/{code}/replay/steps": {"get": {
            "summary": "A page of the steps of a finished or abandoned game as a seat, a "
                       "spectator or in full (docs/server.md)",
            "parameters": _CODE + [
                {"name": "seat", "in": "query", "required": False,
                 "schema": {"type": "string", "description": "a seat number, 'spectator' "
                                                             "or 'full' (the default)"}},
                {"name": "lang", "in": "query", "required": False,
                 "schema": {"enum": ["en", "de", "nl"]}},
                {"name": "from", "in": "query", "required": False,
                 "schema": {"type": "integer", "minimum": 0, "default": 0,
                            "description": "the first step of the page (0: the deal)"}},
                {"name": "limit", "in": "query", "required": False,
                 "schema": {"type": "integer", "minimum": 1, "maximum": 1000,
                            "default": 200, "description": "steps in the page (the "
                                                           "server's replay_page_steps and "
                                                           "replay_max_steps)"}}],
            "responses": {"200": _resp({"type": "object", "properties": {
                "total": {"type": "integer", "description": "steps in the game"},
                "from": {"type": "integer"}, "limit": {"type": "integer"},
                "steps": {"type": "array", "items": {"type": "object"}},
                "next": {"type": ["string", "null"],
                         "description": "the URL of the following page; null at the end"},
                "result": {"type": ["object", "null"]},
                "sheet": {"type": ["object", "null"]},
                "abandoned": {"type": "object",
                              "description": "why an abandoned game stopped"}}}),
                **_ERRORS,
                "413": _resp(_ERROR, "the page is larger than the server sends: ask for "
                                     "fewer steps ('limit')")}}},
        "/api/games/{name}/describe": {"post": {
            "summary": "Descriptions of action texts of a configured game",
            "parameters": _NAME,
            "requestBody": {"content": {"application/json": {"schema": {
                "type": "object", "properties": {
                    "players": {"type": "integer"}, "options": {"type": "object"},
                    "actions": {"type": "array", "items": {"type": "string"},
                                "maxItems": 2000}}}}}},
            "responses": {"200": _resp({"type": "object"}), **_ERRORS}}},
    },
    "components": {"schemas": {
        "Error": {"type": "object", "required": ["error", "message"],
                  "properties": {"error": {"type": "string"},
                                 "message": {"type": "string",
                                             "description": "in the request's language"},
                                 "min": {"type": "integer"}, "max": {"type": "integer"}}},
        "Game": {"type": "object", "properties": {
            "name": {"type": "string"}, "title": {"type": "string"},
            "min_players": {"type": "integer"}, "max_players": {"type": "integer"},
            "default_players": {"type": "integer"}, "summary": {"type": "string"},
            "realtime": {"type": "boolean",
                         "description": "the game has clocks of its own: the pace matters"},
            "options": {"type": "array", "items": {"type": "object", "properties": {
                "name": {"type": "string"}, "kind": {"enum": ["bool", "int", "float", "str"]},
                "default": {}, "choices": {"type": ["array", "null"]},
                "minimum": {"type": ["number", "null"]},
                "maximum": {"type": ["number", "null"]},
                "label": {"type": "string"}, "help": {"type": "string"},
                "value_labels": {"type": "object"},
                "seat": {"type": "boolean", "description": "the value is a seat, 0-based "
                         "(-1: its value_labels word); shown as the table's seat labels"}}}},
            "bots": {"type": "array", "items": {"type": "object", "properties": {
                "level": {"enum": ["easy", "medium", "hard"]}, "label": {"type": "string"},
                "about": {"type": "string"}}}},
            "bot_names": {"type": "array", "items": {"type": "string"}},
            "client": {"type": ["string", "null"],
                       "description": "the URL of the game's browser module (an ES module "
                                      "from its package); null: the generic table draws it"}}},
        "CreateTable": {"type": "object", "properties": {
            "game": {"type": "string", "description": "required unless 'position' is given"},
            "players": {"type": "integer"},
            "options": {"type": "object"},
            "seats": {"type": "array", "description": "default: human, then bot:medium; "
                      "a bot seat names a level (any other spec: 400 bad_bot)",
                      "items": {"type": "string",
                                "pattern": "^(human|bot:(easy|medium|hard))$"}},
            "practice": {"type": "boolean", "description":
                         "a private practice table: only the creator's address may join"},
            "seed": {"type": "integer", "minimum": 0, "maximum": 2**62 - 1,
                     "description": "practice tables only (giving one makes the table one)"},
            "deck": {"type": "array", "description": "a stacked deck: card codes, or lists of "
                     "them (one per shuffle); practice tables only",
                     "items": {"type": ["string", "array"]}},
            "position": {"type": "object", "description": "a position to start from "
                         "(docs/positions.md; game, players and options come from it); "
                         "practice tables only"},
            "pace": {"enum": ["rules", "relaxed", "untimed"], "default": "rules",
                     "description": "the rule's times, three times as long, or no move "
                                    "timer (docs/server.md, Time)"},
            "rated": {"type": "boolean", "default": False, "description":
                      "a rated table: its result changes the ratings of the accounts at it; "
                      "only signed-in people sit there; never a practice table"}}},
        "Table": {"type": "object", "properties": {
            "code": {"type": "string"}, "game": {"type": "string"},
            "players": {"type": "integer"}, "options": {"type": "object"},
            "status": {"enum": ["waiting", "playing", "over", "abandoned", "expired"]},
            "abandoned": {"type": "string", "description": "why an abandoned table stopped "
                                                           "(only then)"},
            "practice": {"type": "boolean",
                         "description": "a private practice table (the creator's only)"},
            "seats": {"type": "array"}, "actions": {"type": "integer"},
            "names": {"type": "array", "items": {"type": "string"}},
            "result": {"type": ["object", "null"]},
            "winner": {"type": ["string", "null"], "description": "the winner's name"},
            "rematch": {"type": ["string", "null"],
                        "description": "the code of this table's rematch, once it started"},
            "rematch_of": {"type": ["string", "null"],
                           "description": "the code of the table this one is a rematch of"},
            "pace": {"enum": ["rules", "relaxed", "untimed"]},
            "rated": {"type": "boolean"},
            "left": {"type": "array", "description": "people whose grace period ran out in "
                     "the running game: seat, name, round, actions, text"},
            "not_ready": {"type": "array", "items": {"type": "integer"},
                          "description": "seats whose player has not seen the first deal "
                                         "yet (no clock runs)"}}},
    }},
}
# sign up, sign in, ... (account_routes.py)
SCHEMA["paths"].update(ACCOUNT_PATHS)
SCHEMA["paths"].update(PASSKEY_PATHS)  # passkeys (passkey_routes.py)
