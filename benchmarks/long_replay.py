"""A long finished game at the server: its first status, its replay file and its replay
steps page by page (issue 41, item 5), and other requests' latency meanwhile.

Plays a Hood Politix game of eight random (easy) bots with the runner (``--seed``;
seed 0 is 38,810 actions), stores it as a finished table in a fresh SQLite file and
serves it on loopback. Prints the first status request (the table rebuilt from its log
in a store thread), the replay file, the first page of ``replay/steps?seat=full``, every
page in turn (total size, slowest page), a page in the middle for another viewer, and
``GET /api/games`` latency (median, max) measured meanwhile every 50 ms.

    .venv/bin/python benchmarks/long_replay.py --seed 0
    .venv/bin/python benchmarks/long_replay.py --players 2   # a moment
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path

import httpx

from spieltisch.bots import make_bot
from spieltisch.core.registry import get_spec
from spieltisch.runner import play_out
from spieltisch.server.config import ServerConfig
from spieltisch.server.loopback import LoopbackServer
from spieltisch.server.store import SeatRow, Store

CODE = "LONG01"


def store_game(url: str, seed: int, players: int) -> int:
    """Play the game with the runner and store it as a finished table; its length."""
    game = get_spec("hood_politix").configure(players, {})
    state = game.new_state(seed)
    bots = [make_bot(game, "random", s, seed * 100 + s) for s in range(players)]
    out = play_out(state, bots, random.Random(seed), max_actions=10_000_000)
    actions = [(s, game.action_to_json(a)) for s, a in out.actions]
    store = Store(url, "bench_")
    table = store.create_table(CODE, "hood_politix", players, dict(game.options), seed,
                               [SeatRow(i, "bot", "easy") for i in range(players)])
    for k in range(0, len(actions), 5000):
        store.append_actions([(table, i, s, a, None)
                              for i, (s, a) in enumerate(actions[k:k + 5000], k)])
    store.set_status(table, "over", state.result().to_json())
    store.close()
    return len(actions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=8, help="2 for a short game")
    args = parser.parse_args()
    url = f"sqlite:///{Path(tempfile.mkdtemp()) / 'long.sqlite3'}"
    length = store_game(url, args.seed, args.players)
    print(f"game: Hood Politix, {args.players} easy bots, seed {args.seed}: "
          f"{length:,} actions")
    config = ServerConfig(db_url=url, table_prefix="bench_", http_requests_per_second=0)
    latencies: list[float] = []
    stop = threading.Event()
    with LoopbackServer(config) as server:
        def probe() -> None:
            while not stop.is_set():
                began = time.perf_counter()
                httpx.get(server.base + "/api/games", timeout=600)
                latencies.append(time.perf_counter() - began)
                time.sleep(0.05)

        def timed(path: str) -> tuple[httpx.Response, float]:
            began = time.perf_counter()
            answer = httpx.get(server.base + path, timeout=600)
            return answer, time.perf_counter() - began

        prober = threading.Thread(target=probe)
        prober.start()
        answer, took = timed(f"/api/tables/{CODE}")
        print(f"first status: {took:.2f} s ({answer.json()['status']})")
        answer, took = timed(f"/api/tables/{CODE}/replay")
        print(f"replay file: {took:.2f} s, {len(answer.content) / 1e6:.1f} MB")
        answer, took = timed(f"/api/tables/{CODE}/replay/steps?seat=full")
        print(f"replay/steps?seat=full, first answer: {took:.2f} s, "
              f"{len(answer.content) / 1e6:.2f} MB")
        size, pages, slowest, began = len(answer.content), 1, 0.0, time.perf_counter()
        following = answer.json().get("next")
        while following:
            page, took = timed(following)
            size, pages, slowest = size + len(page.content), pages + 1, max(slowest, took)
            following = page.json()["next"]
        print(f"all {pages} pages in turn: {time.perf_counter() - began:.1f} s, "
              f"{size / 1e6:.1f} MB, slowest page {slowest:.2f} s")
        answer, took = timed(f"/api/tables/{CODE}/replay/steps?seat=3&from={length // 2}")
        print(f"a page in the middle for seat 3: {took:.2f} s, "
              f"{len(answer.content) / 1e6:.2f} MB")
        stop.set()
        prober.join()
    print(f"GET /api/games meanwhile: n={len(latencies)}, median "
          f"{statistics.median(latencies) * 1e3:.1f} ms, max {max(latencies) * 1e3:.0f} ms")


if __name__ == "__main__":
    main()
