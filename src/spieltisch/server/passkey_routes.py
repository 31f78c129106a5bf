"""The HTTP routes of passkeys (WebAuthn, ``py_webauthn``): sign up, sign in, add one to
an account, list and remove them, delete an account that has no password.

Every ceremony has two steps: ``.../options`` makes a challenge (kept in the database,
``passkeys.PasskeyStore``) and answers the options for ``navigator.credentials``; the
next request sends the browser's signed answer back, which takes the challenge (once,
within 5 minutes) and is checked against:

* the relying party: the request's host name (RP ID, no port), and its own origin
  (``scheme://host[:port]``). An IP address is no RP ID (400 ``passkey_host``); browsers
  offer passkeys only over HTTPS or on ``localhost``.
* user verification (the authenticator's PIN, fingerprint or face): required, since a
  passkey may be an account's only key.
* the sign count: it must grow (when the authenticator counts), else the key may be a copy.

A failed sign-in reads the same whatever failed (an unknown passkey, a wrong signature, a
stale challenge): 401 ``bad_passkey``. Sessions open as with a password (a new token each
time); tries count as there (``account_routes.Tries``): starting a sign-in is a try of the
client address, starting a sign-up or a deletion also of the name.

Decisions: an account made with a passkey has no password (password sign-in, change and
deletion by password all fail for it as for a wrong password); it is deleted after a fresh
passkey assertion (``/api/account/passkey/delete``). Removing a passkey needs the session
only; the last passkey of an account without a password cannot be removed.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import json
import secrets
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import options_to_json_dict
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    AuthenticatorTransport,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from ..i18n import N_
from .account_routes import (
    REFUSALS,
    _claim,
    _deleted,
    _name,
    _signed_in,
    _signed_in_account,
    _tries,
    api_operation,
)
from .accounts import Account
from .app import ApiError, _body, _lobby, current_account, request_language
from .guard import client_address
from .passkeys import (
    CHALLENGE_SECONDS,
    CREDENTIAL_ID_MAX,
    MAX_PASSKEYS,
    Challenge,
    Passkey,
    PasskeyStore,
)
from .texts import language

#: The relying party's name that authenticators show.
RP_NAME = "spieltisch"
#: How the browser may reach an authenticator: the values kept from a registration.
TRANSPORTS = {t.value for t in AuthenticatorTransport}
#: What a failed ceremony says (the same whatever failed: no enumeration).
REFUSED = N_("That passkey was not accepted: try again.")


def b64(data: bytes) -> str:
    """base64url without padding (WebAuthn's JSON form of bytes)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _store(request: Request) -> PasskeyStore:
    """This application's ``PasskeyStore`` (made at its first use)."""
    state = request.app.state
    if not hasattr(state, "passkeys"):
        store = _lobby(request).store
        state.passkeys = PasskeyStore(store.engine, store.passkey_tables, store.account_tables)
    passkeys: PasskeyStore = state.passkeys
    return passkeys


def relying_party(request: Request) -> tuple[str, str]:
    """The RP ID (the request's host name) and the origin the browser must report."""
    host = request.url.hostname or ""
    try:
        ipaddress.ip_address(host.strip("[]"))
        is_ip = True
    except ValueError:
        is_ip = False
    if not host or is_ip:
        raise ApiError(400, "passkey_host", N_(
            "Passkeys need the site's name, not an IP address: open the site by its name."))
    return host, f"{request.url.scheme}://{request.url.netloc}"


async def _answer(request: Request, body: dict[str, Any], status: int = 200) -> Response:
    """A JSON answer that carries the session's CSRF token as every account answer does
    (the client keeps it from there)."""
    account = await current_account(request)
    if account is not None:
        body["csrf"] = request.scope.get("spieltisch.csrf")
    return JSONResponse(body, status_code=status, headers={"cache-control": "no-store"})


def _take_address(request: Request) -> None:
    """Count one try of the client address (429 past ``TRIES_PER_ADDRESS`` a minute)."""
    if not _tries(request).by_address.allow(client_address(request.scope)):
        raise ApiError(429, "too_many_tries", N_(
            "Too many attempts to sign in: wait a minute and try again."))


async def _new_challenge(request: Request, kind: str, account_id: int | None = None,
                         name: str | None = None, lang: str | None = None,
                         handle: bytes | None = None) -> bytes:
    challenge = secrets.token_bytes(32)
    lobby = _lobby(request)
    await lobby.store.call(_store(request).put_challenge, Challenge(
        b64(challenge), kind, account_id, name, lang, None if handle is None else b64(handle)))
    return challenge


def _challenge_of(credential: Any) -> str | None:
    """The challenge an answer claims to sign (read from its ``clientDataJSON``; the
    library checks it again); None when the answer has no readable one."""
    try:
        client_data = json.loads(unb64(credential["response"]["clientDataJSON"]))
        challenge = client_data["challenge"]
    except (KeyError, TypeError, ValueError, binascii.Error, UnicodeDecodeError):
        return None
    return challenge if isinstance(challenge, str) and 0 < len(challenge) <= 128 else None


def _credential(body: dict[str, Any]) -> dict[str, Any]:
    credential = body.get("credential")
    if not isinstance(credential, dict):
        raise ApiError(400, "bad_passkey", REFUSED)
    return credential


async def _taken(request: Request, credential: dict[str, Any], kind: str,
                 refusal: ApiError) -> Challenge:
    """The challenge ``credential`` answers, taken (never to be answered again)."""
    challenge = _challenge_of(credential)
    if challenge is None:
        raise refusal
    lobby = _lobby(request)
    got = await lobby.store.call(_store(request).take_challenge, challenge, kind)
    if got is None:
        raise refusal
    return got


async def _asserted(request: Request, credential: dict[str, Any], kind: str,
                    refusal: ApiError, account_id: int | None = None) -> Passkey:
    """The stored passkey that signed ``credential`` (an assertion) for a live ``kind``
    challenge (made for ``account_id``'s keys, or any key when None), its use recorded;
    ``refusal`` for anything else."""
    rp_id, origin = relying_party(request)
    challenge = await _taken(request, credential, kind, refusal)
    cid = credential.get("id")
    if not isinstance(cid, str) or not 0 < len(cid) <= CREDENTIAL_ID_MAX:
        raise refusal
    lobby, store = _lobby(request), _store(request)
    key = await lobby.store.call(store.get, cid)
    if key is None or challenge.account_id != account_id \
            or (account_id is not None and key.account_id != account_id):
        raise refusal
    try:
        verified = verify_authentication_response(
            credential=credential, expected_challenge=unb64(challenge.challenge),
            expected_rp_id=rp_id, expected_origin=origin,
            credential_public_key=key.public_key, credential_current_sign_count=key.sign_count,
            require_user_verification=True)
    except Exception:  # malformed input of any kind (WebAuthnException, ValueError, ...)
        raise refusal from None
    handle = credential.get("response", {}).get("userHandle")
    if handle not in (None, "", key.user_handle):  # a discoverable key names its account
        raise refusal
    if not await lobby.store.call(store.used, key, verified.new_sign_count):
        raise refusal
    return key


async def _attested(request: Request, credential: dict[str, Any], challenge: Challenge
                    ) -> Passkey:
    """The new passkey that ``credential`` (an attestation) registers for ``challenge``;
    400 ``bad_passkey`` when it does not check out."""
    rp_id, origin = relying_party(request)
    try:
        verified = verify_registration_response(
            credential=credential, expected_challenge=unb64(challenge.challenge),
            expected_rp_id=rp_id, expected_origin=origin, require_user_verification=True)
    except Exception:  # malformed input of any kind (WebAuthnException, ValueError, ...)
        raise ApiError(400, "bad_passkey", REFUSED) from None
    sent = credential.get("response", {}).get("transports")
    transports = sorted({t for t in sent if t in TRANSPORTS}) \
        if isinstance(sent, list) and all(isinstance(t, str) for t in sent) else []
    return Passkey(b64(verified.credential_id), challenge.account_id or 0,
                   challenge.user_handle or "", verified.credential_public_key,
                   verified.sign_count, transports, time.time(), None)


def _selection() -> AuthenticatorSelectionCriteria:
    """Discoverable keys (sign-in without a name) that verify their user."""
    return AuthenticatorSelectionCriteria(
        resident_key=ResidentKeyRequirement.REQUIRED,
        user_verification=UserVerificationRequirement.REQUIRED)


def _descriptors(keys: list[Passkey]) -> list[PublicKeyCredentialDescriptor]:
    return [PublicKeyCredentialDescriptor(
        id=unb64(k.credential_id),
        transports=[AuthenticatorTransport(t) for t in k.transports]) for k in keys]


def _list_json(keys: list[Passkey], has_password: bool) -> dict[str, Any]:
    return {"password": has_password, "passkeys": [
        {"id": k.credential_id, "created": k.created, "last_used": k.last_used,
         "transports": k.transports} for k in keys]}


# -- sign up and sign in ---------------------------------------------------------------

async def signup_options(request: Request) -> Response:
    """``{"name"[, "lang"]}``: the options to make a passkey for a new account."""
    rp_id, _ = relying_party(request)
    body = await _body(request)
    name = _name(body)
    _tries(request).take(request, name)
    lobby = _lobby(request)
    if await lobby.store.call(lobby.accounts.by_name, name) is not None:
        raise ApiError(409, "name_taken", N_("The name {name} is taken: choose another."),
                       name=name)
    lang = body.get("lang")
    lang = language(lang if isinstance(lang, str) else request_language(request))
    handle = secrets.token_bytes(32)
    challenge = await _new_challenge(request, "signup", name=name, lang=lang, handle=handle)
    options = generate_registration_options(
        rp_id=rp_id, rp_name=RP_NAME, user_name=name, user_id=handle, challenge=challenge,
        timeout=CHALLENGE_SECONDS * 1000, authenticator_selection=_selection())
    return await _answer(request, {"options": options_to_json_dict(options)})


async def sign_up(request: Request) -> Response:
    """``{"credential"[, "seats"]}``: the new account (no password) and a session."""
    body = await _body(request)
    credential = _credential(body)
    challenge = await _taken(request, credential, "signup",
                             ApiError(400, "bad_passkey", REFUSED))
    key = await _attested(request, credential, challenge)
    lobby = _lobby(request)
    assert challenge.name is not None and challenge.lang is not None
    account = await lobby.store.call(_store(request).sign_up, challenge.name,
                                     challenge.lang, key)
    if account is None:
        raise ApiError(409, "name_taken", N_("The name {name} is taken: choose another."),
                       name=challenge.name)
    return await _signed_in(request, account, 201, await _claim(request, account, body))


async def signin_options(request: Request) -> Response:
    """The options to sign in with any passkey of this site (no name asked)."""
    rp_id, _ = relying_party(request)
    _take_address(request)
    challenge = await _new_challenge(request, "signin")
    options = generate_authentication_options(
        rp_id=rp_id, challenge=challenge, timeout=CHALLENGE_SECONDS * 1000,
        user_verification=UserVerificationRequirement.REQUIRED)
    return await _answer(request, {"options": options_to_json_dict(options)})


async def sign_in(request: Request) -> Response:
    """``{"credential"[, "seats"]}``: a new session of the passkey's account."""
    body = await _body(request)
    refusal = ApiError(401, "bad_passkey", REFUSED)
    key = await _asserted(request, _credential(body), "signin", refusal)
    lobby = _lobby(request)
    account = await lobby.store.call(lobby.accounts.get, key.account_id)
    if account is None:
        raise refusal
    return await _signed_in(request, account, 200, await _claim(request, account, body))


# -- a signed-in person's passkeys --------------------------------------------------------

async def list_passkeys(request: Request) -> Response:
    """The account's passkeys and whether it has a password."""
    account = await _signed_in_account(request)
    return await _answer(request, await _listing(request, account))


async def _listing(request: Request, account: Account) -> dict[str, Any]:
    lobby, store = _lobby(request), _store(request)
    keys = await lobby.store.call(store.of, account.id)
    return _list_json(keys, await lobby.store.call(store.has_password, account.id))


async def add_options(request: Request) -> Response:
    """The options to add a passkey to the signed-in account."""
    account = await _signed_in_account(request)
    rp_id, _ = relying_party(request)
    _take_address(request)
    lobby = _lobby(request)
    keys = await lobby.store.call(_store(request).of, account.id)
    if len(keys) >= MAX_PASSKEYS:
        raise ApiError(409, "too_many_passkeys", N_("An account has at most {n} passkeys."),
                       n=MAX_PASSKEYS)
    # every key of an account names the same user: an authenticator keeps one per account
    handle = unb64(keys[0].user_handle) if keys else secrets.token_bytes(32)
    challenge = await _new_challenge(request, "add", account_id=account.id, handle=handle)
    options = generate_registration_options(
        rp_id=rp_id, rp_name=RP_NAME, user_name=account.name, user_id=handle,
        challenge=challenge, timeout=CHALLENGE_SECONDS * 1000,
        authenticator_selection=_selection(), exclude_credentials=_descriptors(keys))
    return await _answer(request, {"options": options_to_json_dict(options)})


async def add(request: Request) -> Response:
    """``{"credential"}``: the new passkey joins the signed-in account."""
    account = await _signed_in_account(request)
    body = await _body(request)
    credential = _credential(body)
    refusal = ApiError(400, "bad_passkey", REFUSED)
    challenge = await _taken(request, credential, "add", refusal)
    if challenge.account_id != account.id:
        raise refusal
    key = await _attested(request, credential, challenge)
    lobby = _lobby(request)
    if not await lobby.store.call(_store(request).add, account.id, key):
        raise refusal
    return await _answer(request, await _listing(request, account), 201)


async def remove(request: Request) -> Response:
    """``{"id"}``: remove one of the account's passkeys (not the last one of an account
    without a password)."""
    account = await _signed_in_account(request)
    body = await _body(request)
    cid = body.get("id")
    if not isinstance(cid, str) or not 0 < len(cid) <= CREDENTIAL_ID_MAX:
        raise ApiError(404, "no_passkey", N_("Your account has no such passkey."))
    lobby = _lobby(request)
    outcome = await lobby.store.call(_store(request).remove, account.id, cid)
    if outcome == "unknown":
        raise ApiError(404, "no_passkey", N_("Your account has no such passkey."))
    if outcome == "last":
        raise ApiError(409, "last_passkey", N_(
            "This passkey is the only way into your account: add another one first."))
    return await _answer(request, await _listing(request, account))


async def delete_options(request: Request) -> Response:
    """The options to confirm the account's deletion with one of its passkeys."""
    account = await _signed_in_account(request)
    rp_id, _ = relying_party(request)
    _tries(request).take(request, account.name)
    lobby = _lobby(request)
    keys = await lobby.store.call(_store(request).of, account.id)
    if not keys:
        raise ApiError(409, "no_passkey", N_("Your account has no such passkey."))
    challenge = await _new_challenge(request, "delete", account_id=account.id)
    options = generate_authentication_options(
        rp_id=rp_id, challenge=challenge, timeout=CHALLENGE_SECONDS * 1000,
        allow_credentials=_descriptors(keys),
        user_verification=UserVerificationRequirement.REQUIRED)
    return await _answer(request, {"options": options_to_json_dict(options)})


async def delete_account(request: Request) -> Response:
    """``{"credential"}``: delete the signed-in account, confirmed by one of its passkeys
    (as ``account_routes.delete_account`` does with the password)."""
    account = await _signed_in_account(request)
    body = await _body(request)
    await _asserted(request, _credential(body), "delete",
                    ApiError(403, "bad_passkey", REFUSED), account.id)
    lobby = _lobby(request)
    await lobby.store.call(lobby.accounts.erase, account.id)
    return _deleted(lobby, account)


def _op(summary: str, body: dict[str, Any] | None, ok: str = "200") -> dict[str, Any]:
    """An operation of the OpenAPI description (as ``account_routes``' are; a passkey may be
    unknown: 404)."""
    return api_operation(summary, body, ok, (*REFUSALS, "404"))


_CREDENTIAL = {"credential": {"type": "object",
                              "description": "the PublicKeyCredential, bytes as base64url"}}
_P = "/api/account/passkey"
#: The passkey routes in the OpenAPI description (``openapi.SCHEMA``).
PASSKEY_PATHS: dict[str, Any] = {
    f"{_P}/signup/options": {"post": _op(
        "Options to make a passkey for a new account", {"name": {"type": "string"},
                                                        "lang": {"type": "string"}})},
    f"{_P}/signup": {"post": _op("Sign up with a passkey: a new account without a "
                                 "password, and a session", _CREDENTIAL, "201")},
    f"{_P}/signin/options": {"post": _op("Options to sign in with a passkey", None)},
    f"{_P}/signin": {"post": _op("Sign in with a passkey: a new session", _CREDENTIAL)},
    f"{_P}/add/options": {"post": _op("Options to add a passkey to my account", None)},
    f"{_P}/add": {"post": _op("Add a passkey to my account", _CREDENTIAL, "201")},
    f"{_P}/remove": {"post": _op("Remove one of my passkeys", {"id": {"type": "string"}})},
    f"{_P}/delete/options": {"post": _op("Options to confirm deleting my account", None)},
    f"{_P}/delete": {"post": _op("Delete my account, confirmed by a passkey", _CREDENTIAL)},
    "/api/account/passkeys": {"get": _op("My passkeys, and whether I have a password",
                                         None)},
}


def passkey_routes() -> list[BaseRoute]:
    return [
        Route(f"{_P}/signup/options", signup_options, methods=["POST"]),
        Route(f"{_P}/signup", sign_up, methods=["POST"]),
        Route(f"{_P}/signin/options", signin_options, methods=["POST"]),
        Route(f"{_P}/signin", sign_in, methods=["POST"]),
        Route(f"{_P}/add/options", add_options, methods=["POST"]),
        Route(f"{_P}/add", add, methods=["POST"]),
        Route(f"{_P}/remove", remove, methods=["POST"]),
        Route(f"{_P}/delete/options", delete_options, methods=["POST"]),
        Route(f"{_P}/delete", delete_account, methods=["POST"]),
        Route("/api/account/passkeys", list_passkeys),
    ]


__all__ = ["PASSKEY_PATHS", "passkey_routes", "relying_party"]
