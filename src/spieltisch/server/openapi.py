"""OpenAPI 3.1 description of the HTTP lobby API (served at ``/api/openapi.json``)."""

from __future__ import annotations

from typing import Any

_ERROR = {"$ref": "#/components/schemas/Error"}
_TABLE = {"$ref": "#/components/schemas/Table"}


def _resp(schema: dict[str, Any], desc: str = "ok") -> dict[str, Any]:
    return {"description": desc, "content": {"application/json": {"schema": schema}}}


_ERRORS = {"400": _resp(_ERROR, "bad request"), "404": _resp(_ERROR, "no such table"),
           "409": _resp(_ERROR, "conflict"), "413": _resp(_ERROR, "body too large"),
           "429": _resp(_ERROR, "too many tables")}
_CODE = [{"name": "code", "in": "path", "required": True, "schema": {"type": "string"}}]

SCHEMA: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "spieltisch lobby", "version": "1"},
    "paths": {
        "/api/games": {"get": {"summary": "Games, player counts, options and bots",
                               "responses": {"200": _resp({"type": "array"})}}},
        "/api/tables": {
            "get": {"summary": "Live and recently finished tables",
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
                    "seat": {"type": "integer", "minimum": 0}}}}}},
            "responses": {"201": _resp({"type": "object", "required": ["seat", "token"],
                                        "properties": {"code": {"type": "string"},
                                                       "seat": {"type": "integer"},
                                                       "token": {"type": "string"},
                                                       "ws": {"type": "string"}}}),
                          **_ERRORS}}},
        "/api/tables/{code}/replay": {"get": {
            "summary": "Replay file of a finished game (docs/replays.md)", "parameters": _CODE,
            "responses": {"200": _resp({"type": "object"}), **_ERRORS}}},
    },
    "components": {"schemas": {
        "Error": {"type": "object", "required": ["error", "message"],
                  "properties": {"error": {"type": "string"}, "message": {"type": "string"}}},
        "CreateTable": {"type": "object", "required": ["game"], "properties": {
            "game": {"type": "string"}, "players": {"type": "integer"},
            "options": {"type": "object"},
            "seats": {"type": "array", "items": {"type": "string",
                                                 "pattern": "^(human|bot:.+)$"}},
            "seed": {"type": "integer", "minimum": 0}}},
        "Table": {"type": "object", "properties": {
            "code": {"type": "string"}, "game": {"type": "string"},
            "players": {"type": "integer"}, "options": {"type": "object"},
            "status": {"enum": ["waiting", "playing", "over"]},
            "seats": {"type": "array"}, "actions": {"type": "integer"},
            "result": {"type": ["object", "null"]}}},
    }},
}
