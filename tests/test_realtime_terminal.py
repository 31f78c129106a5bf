"""The real-time terminal in a real pseudo-terminal (issue 18, item 7): Hood Politix is
played against bots in real time while the player types, and the half-typed line at the
prompt stays intact on the bottom line while the bots' moves scroll above it.

``pexpect`` runs ``spieltisch play`` in a pseudo-terminal; ``pyte`` renders what it
writes into the screen a person would see (and answers the prompt's cursor-position
requests, as a terminal does).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pexpect
import pyte

ROWS, COLS = 40, 160
TIMEOUT = 60.0  # generous: the machine is shared


class Terminal:
    """A pseudo-terminal running a command, and the screen it shows."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        env = {**os.environ, "TERM": "xterm", "COLUMNS": str(COLS), "LINES": str(ROWS),
               "LANG": "C.UTF-8", "PYTHONUNBUFFERED": "1"}
        self.child = pexpect.spawn(args[0], args[1:], cwd=str(cwd), env=env,
                                   dimensions=(ROWS, COLS), encoding="utf-8",
                                   codec_errors="replace")
        self.screen = pyte.Screen(COLS, ROWS)
        # answer a cursor-position request (ESC [6n) as a terminal would
        self.screen.write_process_input = self.child.send  # type: ignore[method-assign]
        self.stream = pyte.Stream(self.screen)
        #: Everything written since ``mark`` (the raw text, to wait for output).
        self.since = ""

    def pump(self, seconds: float) -> bool:
        """Read for up to ``seconds``; False when nothing came (the screen is still)."""
        try:
            text = self.child.read_nonblocking(65536, timeout=seconds)
        except pexpect.TIMEOUT:
            return False
        except pexpect.EOF:
            return False
        self.stream.feed(text)
        self.since += text
        return True

    def wait(self, done, what: str) -> None:
        give_up = time.monotonic() + TIMEOUT
        while not done():
            assert self.child.isalive() or self.pump(0.05), f"exited before {what}"
            assert time.monotonic() < give_up, f"no {what}:\n" + "\n".join(self.lines())
            self.pump(0.05)

    def settle(self, quiet: float = 0.3) -> None:
        """Read until nothing comes for ``quiet`` seconds."""
        give_up = time.monotonic() + TIMEOUT
        while self.pump(quiet):
            assert time.monotonic() < give_up, "the output never stopped"

    def lines(self) -> list[str]:
        return [line.rstrip() for line in self.screen.display]

    def cursor_line(self) -> str:
        return self.lines()[self.screen.cursor.y]


def test_the_prompt_stays_intact_while_the_bots_play(tmp_path: Path) -> None:
    term = Terminal([sys.executable, "-m", "spieltisch.cli.main", "play", "hood_politix",
                     "--seed", "5", "--name", "Zoe", "--lang", "en", "--bots", "heuristic"],
                    tmp_path)
    try:
        term.wait(lambda: term.cursor_line() == ">", "prompt")
        shown = "\n".join(term.lines())
        assert "Hood Politix in real time — you are Zoe (seat 0); seed 5." in shown
        assert "Round 1:" in shown  # the first deal is told first
        term.child.send("hel")  # half a command, not yet entered
        term.since = ""
        # wait until the bots have made moves that were printed while the line was open
        term.wait(lambda: term.since.count("-" * 60) >= 2, "bot moves")
        for _ in range(2):  # look at the screen each time it comes to rest
            term.settle()
            lines = term.lines()
            y = term.screen.cursor.y
            assert lines[y] == "> hel", lines
            assert not any(line.strip() for line in lines[y + 1:]), lines  # the last line
            assert [line for line in lines if line.startswith(">")] == ["> hel"], lines
            assert "-" * 60 in lines[:y]  # the bots' moves were printed above it
            term.since = ""
            term.wait(lambda: "-" * 60 in term.since, "another bot move")
        # the line typed is whole: it runs as one command
        term.child.send("p\r")
        term.wait(lambda: "'v' shows the table again" in term.since, "help")
        term.child.send("quit\r")
        term.wait(lambda: "Save the replay?" in term.cursor_line(), "save question")
        term.child.sendcontrol("d")  # Ctrl-D at the question: no
        term.child.expect(pexpect.EOF, timeout=TIMEOUT)
        term.child.close()
        assert term.child.exitstatus == 0
        assert list(tmp_path.iterdir()) == []  # nothing saved
    finally:
        if term.child.isalive():
            term.child.terminate(force=True)
