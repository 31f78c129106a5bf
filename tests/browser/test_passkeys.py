"""Passkeys in the browser: sign up with a passkey (no password), sign out, sign in with
it, all through Chromium's virtual authenticator (DevTools' WebAuthn domain); axe-core on
the account page with its passkey.

The page is opened at ``localhost``: an IP address is no relying party ID, and
``localhost`` is a secure context over plain HTTP.
"""

from __future__ import annotations

import uuid
from typing import Any

from spieltisch.server.loopback import LoopbackServer

from .helpers import new_page
from .test_a11y import violations


def test_sign_up_out_and_in_with_a_passkey(server: LoopbackServer, browser: Any) -> None:
    name = f"k{uuid.uuid4().hex[:10]}"
    page = new_page(browser)
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
        "hasUserVerification": True, "isUserVerified": True}})
    page.goto(f"http://localhost:{server.port}/")
    page.click("#signup-btn")
    page.wait_for_selector("#account-dialog[open]")
    page.get_by_label("Name", exact=True).fill(name)
    page.click("#account-passkey")  # "Sign up with a passkey": no password typed
    page.wait_for_selector(f"#account-link:has-text('{name}')")
    page.click("#account-link")
    page.wait_for_selector(".passkey-list li")
    assert page.locator("#password-form").is_hidden()  # no password to change
    assert violations(page) == []
    page.click("#signout-btn")
    page.wait_for_selector("#signin-btn")

    page.click("#signin-btn")
    page.wait_for_selector("#account-dialog[open]")
    page.click("#account-passkey")  # "Sign in with a passkey": no name asked
    page.wait_for_selector(f"#account-link:has-text('{name}')")
    page.reload()
    page.wait_for_selector(f"#account-link:has-text('{name}')")
    page.context.close()
