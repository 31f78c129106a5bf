"""The documented commands, run as a newcomer runs them, on a copy of the checkout.

* The README's first command (a fresh virtualenv, the ``server`` extra, ``spieltisch
  serve``) answers ``/api/games``.
* docs/cluster.md's two-nodes-on-one-machine recipe, line by line, runs a ``simulate`` on
  a two-node Ray cluster, with the Ray the ``cluster`` extra installs.

These start servers and clusters: they are serial (tests/conftest.py).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[1]
VENV_BIN = Path(sys.executable).parent


def checkout_copy(to: Path) -> Path:
    """The files of the checkout a clone would have (tracked and new ones, nothing
    ignored: no venv, no build), copied to ``to``."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], cwd=ROOT, capture_output=True,
                            check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (to / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, to / name)
    return to


def readme_command(number: int) -> str:
    """The README's numbered command (``# 1. ...`` and the line after it)."""
    lines = (ROOT / "README.md").read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(f"# {number}. "))
    return lines[at + 1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_readme_command_one_serves_the_games_from_a_fresh_copy(tmp_path: Path) -> None:
    copy = checkout_copy(tmp_path / "spieltisch")
    command = readme_command(1)
    assert command.endswith(".venv/bin/spieltisch serve"), command
    port = free_port()
    # a fresh machine: no games registered from outside the package (SPIELTISCH_GAMES)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("COVERAGE_", "VIRTUAL_ENV", "PYTHONPATH", "SPIELTISCH_GAMES"))}
    # the server's data in a home of its own; a free port instead of the default 8000
    env.update(HOME=str(tmp_path / "home"), XDG_DATA_HOME=str(tmp_path / "home" / "data"))
    log = tmp_path / "serve.log"
    with open(log, "wb") as out:
        server = subprocess.Popen(["bash", "-c", f"{command} --port {port}"], cwd=copy,
                                  env=env, stdout=out, stderr=subprocess.STDOUT,
                                  start_new_session=True)
    try:
        give_up = time.monotonic() + 600  # the install: a fresh virtualenv, from pip's cache
        while True:
            assert server.poll() is None, log.read_text()
            try:
                answer = httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=5)
                break
            except httpx.HTTPError:
                assert time.monotonic() < give_up, log.read_text()
                time.sleep(0.5)
        assert answer.status_code == 200
        games = {g["name"] for g in answer.json()}
        # every package of the source's games folder, and none from elsewhere
        assert games == {p.parent.name for p in
                         (copy / "src" / "spieltisch" / "games").glob("*/__init__.py")}
        said = subprocess.run([str(copy / ".venv" / "bin" / "spieltisch"), "--version"],
                              capture_output=True, text=True, env=env, check=True).stdout
        assert said == "spieltisch 0.1.0, pure Python\n"
        assert f"spieltisch server on http://localhost:{port}/" in log.read_text()
    finally:
        with contextlib.suppress(ProcessLookupError):  # it may have ended by itself
            os.killpg(server.pid, signal.SIGTERM)
        server.wait(60)


def cluster_recipe() -> list[str]:
    """The console lines of docs/cluster.md's "Two nodes on one machine"."""
    text = (ROOT / "docs" / "cluster.md").read_text()
    section = text[text.index("### Two nodes on one machine"):]
    block = section[section.index("```console"):]
    block = block[:block.index("```", 3)]
    return [line[2:] for line in block.splitlines() if line.startswith("$ ")]


def test_the_cluster_recipe_runs_a_simulation_on_two_nodes(tmp_path: Path) -> None:
    """The recipe's last line, ``ray stop``, ends every Ray process of this user on the
    machine (Ray has no other way): the serial tests run one at a time, test_ray.py's
    cluster after this."""
    pytest.importorskip("ray")
    lines = cluster_recipe()
    assert lines[-1] == "ray stop" and any(" --ray auto" in line for line in lines)
    port = str(free_port())
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COVERAGE_", "RAY_"))}
    env.update(HOME=str(home), PATH=f"{VENV_BIN}:{env['PATH']}",
               RAY_USAGE_STATS_ENABLED="0")
    # every line but the last, as written (one shell: the export holds for the next ones)
    script = "set -e\n" + "\n".join(line.replace("6380", port) for line in lines[:-1])
    script += "\nray status\n"
    try:
        done = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=600)
    finally:
        subprocess.run(["bash", "-c", lines[-1] + " --force"], cwd=tmp_path, env=env,
                       capture_output=True, timeout=120)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert (home / ".ray" / "auth_token").is_file()
    assert re.search(r"Active:\s*\n\s*1 node_\w+\s*\n\s*1 node_\w+", done.stdout), done.stdout
    assert re.search(r"\d\.\d/2\.0 CPU", done.stdout), done.stdout  # one CPU from each
    records = [json.loads(line) for line in (tmp_path / "president.jsonl").open()]
    assert [r["index"] for r in records] == list(range(500))
    # the same records as on this machine's cores alone
    subprocess.run(["spieltisch", "simulate", "president", "-n", "500", "--jobs", "2",
                    "--out", "cores.jsonl"], cwd=tmp_path, env=env, check=True,
                   capture_output=True, timeout=600)
    assert (tmp_path / "cores.jsonl").read_bytes() == (tmp_path / "president.jsonl").read_bytes()
