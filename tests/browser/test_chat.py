"""The table chat from the browser (issue 39, "done when"): two people at one table, one
reading English and one German. A quick phrase reaches each in their own language, free
text as written; after muting the sender their messages are hidden (already shown ones
too), and unmuting shows them again. The chat's pane passes axe-core."""

from __future__ import annotations

from typing import Any

import httpx

from spieltisch.server.loopback import LoopbackServer
from spieltisch.server.texts import server_tr

from .helpers import create, new_page, sit, wait_started
from .test_a11y import violations


def open_chat(page: Any) -> None:
    page.click(".chatviews button[data-view=chat]")
    page.wait_for_selector("#chat:not([hidden]) .phrasebtn")


def line(page: Any, message_id: int) -> str:
    """The text of chat message ``message_id`` as the page shows it."""
    return str(page.inner_text(f"#chat .chatlines li[data-id='{message_id}'] .chattext"))


def test_phrases_translated_for_the_reader_and_a_muted_sender_hidden(
        still_server: LoopbackServer, browser: Any) -> None:
    code = create(still_server, "president", ["human", "human", "bot:easy", "bot:easy"],
                  players=4)
    anna, ben = new_page(browser, "en"), new_page(browser, "de")
    sit(anna, still_server.base, code, "Anna")
    sit(ben, still_server.base, code, "Ben")
    for page in (anna, ben):
        wait_started(page)
        open_chat(page)
    anna.click("#chat .phrasebtn[data-phrase=good_luck]")
    ben.wait_for_selector("#chat .chatlines li[data-id='1']")
    assert line(ben, 1) == f"Anna: {server_tr('de').gettext('Good luck!')}"
    assert line(ben, 1) != "Anna: Good luck!"
    anna.wait_for_selector("#chat .chatlines li[data-id='1']")
    assert line(anna, 1) == "Anna: Good luck!"
    anna.fill("#chat input[name=text]", "Schön, dass du da bist")
    anna.press("#chat input[name=text]", "Enter")
    ben.wait_for_selector("#chat .chatlines li[data-id='2']")
    assert line(ben, 2) == "Anna: Schön, dass du da bist"
    assert anna.input_value("#chat input[name=text]") == ""  # sent: the field empties
    assert violations(ben) == []

    # Ben reports Anna's text (the reason asked in a prompt): stored on the server
    ben.once("dialog", lambda dialog: dialog.accept("not nice"))
    ben.click("#chat li[data-id='2'] summary")
    ben.click("#chat li[data-id='2'] button[data-report='2']")
    ben.wait_for_selector("#toast.info:not([hidden])")
    assert ben.inner_text("#toast") == "Danke: die Nachricht ist gemeldet."
    again = httpx.post(f"{still_server.base}/api/tables/{code}/chat/2/report", json={})
    assert again.status_code == 409  # the same address reported it already

    # Ben mutes Anna: her messages go, the ones shown already too
    ben.click("#chat li[data-id='1'] summary")
    ben.click("#chat li[data-id='1'] button[data-mute='Anna']")
    assert ben.locator("#chat .chatlines li[data-seat='0']").count() == 0
    anna.click("#chat .phrasebtn[data-phrase=oops]")
    anna.wait_for_selector("#chat .chatlines li[data-id='3']")
    ben.click("#chat .phrasebtn[data-phrase=thanks]")  # sent after Anna's third arrived
    ben.wait_for_selector("#chat .chatlines li[data-id='4']")
    assert ben.evaluate("() => document.querySelectorAll('#chat .chatlines li').length") == 1
    assert violations(ben) == []
    # the mute is kept in this browser, for every table; undone by "Unmute"
    assert ben.evaluate("() => localStorage.getItem('spieltisch.chat.mutedPeople')") \
        == '["anna"]'
    ben.click("#chat button[data-unmute='Anna']")
    ben.wait_for_selector("#chat .chatlines li[data-id='3']")
    assert [ben.get_attribute(f"#chat .chatlines li:nth-child({i})", "data-id")
            for i in (1, 2, 3, 4)] == ["4", "3", "2", "1"]
    # muting the table hides all its chat
    ben.click("#chat-mute")
    assert ben.locator("#chat .chatlines").is_hidden()
    for page in (anna, ben):
        page.context.close()
