"""Accounts in the browser: sign up in the header, still signed in after a reload (the
session cookie), a change sent with the CSRF token, sign out on the account page; axe-core
on the dialog and the account page."""

from __future__ import annotations

import uuid
from typing import Any

from spieltisch.server.loopback import LoopbackServer

from .helpers import new_page
from .test_a11y import violations


def test_sign_up_reload_sign_out(server: LoopbackServer, browser: Any) -> None:
    name = f"p{uuid.uuid4().hex[:10]}"
    page = new_page(browser)
    page.goto(f"{server.base}/")
    page.click("#signup-btn")
    page.wait_for_selector("#account-dialog[open]")
    assert violations(page) == []
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Password", exact=True).fill("correct horse")
    page.click("#account-dialog button[value='ok']")
    page.wait_for_selector(f"#account-link:has-text('{name}')")
    page.reload()
    page.wait_for_selector(f"#account-link:has-text('{name}')")
    page.click("#account-link")
    page.wait_for_selector("#app[data-page='account']")
    assert violations(page) == []
    # a change (its CSRF token read from /api/me after the reload) is accepted
    page.select_option("#account-lang", "de")
    page.click("#lang-form button[type='submit']")
    page.wait_for_selector("html[lang='de']")
    page.click("#signout-btn")
    page.wait_for_selector("#signin-btn")
    page.reload()
    page.wait_for_selector("#signin-btn")
    assert page.locator("#account-link").count() == 0
    page.context.close()


def test_the_header_fits_a_phone(server: LoopbackServer, browser: Any) -> None:
    """At 360 px the header keeps one "Sign in" (its dialog offers signing up) and the
    page does not scroll sideways."""
    page = new_page(browser, width=360, height=740)
    page.goto(f"{server.base}/")
    page.wait_for_selector("#create-form")
    assert page.locator("#signin-btn").is_visible()
    assert not page.locator("#signup-btn").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.click("#signin-btn")
    page.click("#account-switch")  # to signing up
    page.wait_for_selector("#account-dialog input[autocomplete='new-password']")
    page.context.close()
