"""Scale-out on Ray (issue 24): the same records and summary as --jobs 1 on a real local
cluster (a head and a worker node on loopback), a node killed mid-run costs only its
games in flight, records stream to disk, and nothing imports Ray without --ray."""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spieltisch import simulate as sim
from spieltisch.cli.main import app
from spieltisch.core import get_spec
from spieltisch.simulate import play_one

runner = CliRunner()
NO_RAY = importlib.util.find_spec("ray") is None
needs_ray = pytest.mark.skipif(NO_RAY, reason="the 'cluster' extra is not installed "
                                              "(pip install 'spieltisch[cluster]')")
MB = 2**20


@pytest.fixture(scope="module")
def cluster():
    """A head node and one worker node, one CPU each, on loopback (Ray's own test
    cluster: real raylets and object stores, in processes of their own)."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    from ray.cluster_utils import Cluster

    c = Cluster(initialize_head=True, head_node_args={
        "num_cpus": 1, "object_store_memory": 80 * MB, "include_dashboard": False,
        # notice a killed node within a second or two, not the default half a minute
        "_system_config": {"health_check_initial_delay_ms": 0,
                           "health_check_period_ms": 500,
                           "health_check_failure_threshold": 3}})
    c.add_node(num_cpus=1, object_store_memory=80 * MB)
    c.wait_for_nodes()
    yield c
    c.shutdown()


def cli(*args: str):
    return runner.invoke(app, list(args))


def summary_of(result) -> dict:
    assert result.exit_code == 0, result.output
    return json.loads(result.output[result.output.index("{"):])


@needs_ray
def test_simulate_on_a_cluster_gives_the_records_and_summary_of_jobs_1(cluster, tmp_path):
    args = ["simulate", "president", "-n", "40", "--seed", "5",
            "--bots", "heuristic,random,random,random,random", "--json"]
    here, there = tmp_path / "jobs1.jsonl", tmp_path / "ray.jsonl"
    alone = summary_of(cli(*args, "--out", str(here)))
    spread = summary_of(cli(*args, "--out", str(there), "--ray", cluster.address))
    assert there.read_text().splitlines() == here.read_text().splitlines()
    assert [json.loads(x)["index"] for x in there.read_text().splitlines()] == list(range(40))
    assert spread == alone


@needs_ray
def test_a_tournament_on_a_cluster_journals_resumes_and_matches_jobs_1(cluster, tmp_path):
    args = ["tournament", "hockey", "--bots", "random,heuristic", "--games", "8",
            "--seed", "4", "--json"]
    alone = tmp_path / "alone.json"
    assert cli(*args, "--out", str(alone)).exit_code == 0
    expected = json.loads(alone.read_text())
    # an interrupted run on the cluster: its journal holds games 0-2, and game 3 half
    out = tmp_path / "ray.json"
    journal = tmp_path / "ray.json.games.jsonl"
    header = {"game": "hockey", "players": 2, "options": get_spec("hockey").configure(2).options,
              "specs": ["random", "heuristic"], "seed": 4}
    journal.write_text(json.dumps(header) + "\n"
                       + "".join(json.dumps(r) + "\n" for r in expected["records"][:3])
                       + json.dumps(expected["records"][3])[:30])
    r = cli(*args, "--out", str(out), "--ray", cluster.address)
    assert r.exit_code == 0, r.output
    assert "resuming: 3 of 8 games already played" in " ".join(r.output.split())
    assert json.loads(out.read_text()) == expected
    assert not journal.exists()


@needs_ray
def test_the_lab_plays_the_same_records_on_a_cluster(cluster):
    from spieltisch.cluster import RayWorkers
    from spieltisch.lab import LabPlan, LocalProcesses, OnWorkers, parse_variant

    plan = LabPlan.make("president", [4, 5], [parse_variant("base"),
                                              parse_variant("skip:skip_rule=on")],
                        ["random", "heuristic"], 6, 3, 2)
    tasks = plan.tasks()
    with RayWorkers(cluster.address, task_seconds=0.2) as workers:
        assert workers.describe().endswith("2 nodes, 2 CPUs")
        far = OnWorkers(workers).play(tasks)
    assert far == LocalProcesses(1).play(tasks)


def _logged_play(log: str, doomed: str, task: sim.Task) -> dict:
    """``play_one`` that first notes the game and its node in the shared log; on the
    node to be killed, the game then waits, so that it is in flight when the node dies."""
    import time

    import ray

    node = ray.get_runtime_context().get_node_id()
    with open(log, "a") as f:
        f.write(f"{task.index} {node}\n")
    if node == doomed:
        time.sleep(120)
    return play_one(task)


@needs_ray
def test_a_killed_worker_node_costs_only_its_games_in_flight(cluster, tmp_path):
    """SIGKILL of a node's raylet and workers while it plays: Ray runs its task again on
    the nodes left, the games played twice are exactly those the dead node had started,
    and the records hold every game once, as --jobs 1 has them."""
    import ray.cloudpickle

    from spieltisch.cluster import RayWorkers

    log = tmp_path / "started.log"
    log.touch()
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    doomed = cluster.add_node(num_cpus=1, object_store_memory=80 * MB)
    cluster.wait_for_nodes()
    g = get_spec("hood_politix").configure(4)
    tasks = sim.tasks_for("hood_politix", 4, g.options, ["heuristic"] * 4, 9, 60)
    killed = threading.Event()
    stop = threading.Event()

    def kill_when_it_plays() -> None:
        while not stop.wait(0.05):
            if doomed.node_id in log.read_text():
                cluster.remove_node(doomed, allow_graceful=False)
                killed.set()
                return

    class Logged(RayWorkers):
        def imap_unordered(self, fn, items):
            play = functools.partial(_logged_play, str(log), doomed.node_id)
            return super().imap_unordered(play, items)

    killer = threading.Thread(target=kill_when_it_plays)
    killer.start()
    try:
        with Logged(cluster.address, task_seconds=0.3) as workers:
            records = sim.run(tasks, workers=workers)
    finally:
        stop.set()
        killer.join()
        ray.cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    assert killed.is_set()
    assert records == sim.run(tasks)
    assert [r["index"] for r in records] == list(range(60))
    started = [line.split() for line in log.read_text().splitlines()]
    on_doomed = {int(i) for i, node in started if node == doomed.node_id}
    indices = [int(i) for i, _ in started]
    again = {i for i in indices if indices.count(i) > 1}
    assert set(indices) == set(range(60))
    assert len(on_doomed) == 1 and again == on_doomed


def test_nothing_imports_ray_without_the_flag(tmp_path):
    code = ("import sys\nfrom typer.testing import CliRunner\n"
            "from spieltisch.cli.main import app\n"
            "r = CliRunner().invoke(app, ['simulate', 'hockey', '-n', '3', '-j', '2'])\n"
            "assert r.exit_code == 0, r.output\n"
            "r = CliRunner().invoke(app, ['tournament', 'hockey', '--bots', 'random', "
            "'-n', '2'])\n"
            "assert r.exit_code == 0, r.output\n"
            "print('ray' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_ray_without_the_extra_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # ``import ray`` fails as if missing
    r = cli("tournament", "hockey", "--bots", "random", "-n", "2", "--ray", "local")
    assert r.exit_code == 2
    assert "--ray needs the 'cluster' extra" in r.output
    assert "pip install 'spieltisch[cluster]'" in r.output and "Traceback" not in r.output


def test_a_cluster_that_wants_a_token_says_so(monkeypatch):
    """Ray's refusal (its own exception class, no common base) is one line with the way out."""
    import types

    class RayError(Exception):
        pass

    class AuthenticationError(RayError):
        pass

    def init(**_: object) -> None:
        raise AuthenticationError("Token authentication is enabled but no authentication "
                                  "token was found.\nEnsure that ...")

    fake = types.SimpleNamespace(is_initialized=lambda: False, init=init,
                                 exceptions=types.SimpleNamespace(RayError=RayError))
    monkeypatch.setitem(sys.modules, "ray", fake)
    r = cli("simulate", "hockey", "-n", "2", "--ray", "auto")
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert ("cannot reach the Ray cluster at auto (the cluster uses token authentication: "
            "give this machine its token in ~/.ray/auth_token or RAY_AUTH_TOKEN, and set "
            "RAY_AUTH_MODE=token; docs/cluster.md): Token authentication is enabled but no "
            "authentication token was found.") in " ".join(r.output.split())


def test_jobs_and_ray_together_are_refused():
    r = cli("simulate", "hockey", "-n", "3", "-j", "2", "--ray", "auto")
    assert r.exit_code == 2 and "give --jobs or --ray, not both" in r.output


def test_the_streamed_summary_is_the_summary_of_the_list_in_any_order():
    g = get_spec("hockey").configure(2)
    records = sim.run(sim.tasks_for("hockey", 2, g.options, ["random", "heuristic"], 3, 40))
    listed = sim.summarise(records, 2)
    shuffled = records[:]
    random.Random(1).shuffle(shuffled)
    assert sim.summarise(shuffled, 2) == listed
    values = [r["actions"] for r in records] + [0.5, 0.5]
    tally = sim.Tally()
    for v in reversed(values):
        tally.add(v)
    assert tally.spread() == sim.spread(values)
    assert listed["length"]["actions"] == sim.spread([r["actions"] for r in records])


def test_records_stream_to_parquet_and_jsonl(tmp_path: Path):
    import pyarrow.parquet as pq

    g = get_spec("pixmit").configure(4)
    records = sim.run(sim.tasks_for("pixmit", 4, g.options, ["random"] * 4, 2, 25))
    with sim.RecordWriter(tmp_path / "r.parquet", parquet_rows=10) as w:
        for r in records:
            w.write(r)
    table = pq.read_table(tmp_path / "r.parquet")
    assert table.num_rows == 25 and pq.ParquetFile(tmp_path / "r.parquet").num_row_groups == 3
    rows = table.to_pylist()
    assert [r["index"] for r in rows] == list(range(25))
    assert [r["ranks"] for r in rows] == [r["ranks"] for r in records]
    assert [json.loads(r["units"]) for r in rows] == [r["units"] for r in records]
    with sim.RecordWriter(tmp_path / "r.jsonl") as w:
        for r in records[:3]:
            w.write(r)
    assert [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()] \
        == records[:3]
    r = cli("simulate", "hockey", "-n", "2", "--out", str(tmp_path / "r.xlsx"))
    assert r.exit_code == 2 and "--out must end in .jsonl, .csv or .parquet" in r.output
