"""The compiled build (issue 27, ``docs/performance.md``) against the pure-Python one.

``scripts/test.sh`` builds it into ``build/compiled`` (``SPIELTISCH_COMPILE=1``) and runs
the rules, conformance and ISMCTS tests on it; here both builds play the same seeded games
in separate processes and must write identical records: every action, every legal list,
every event as each seat sees it, the results, and ISMCTS's choices. The build itself was
made as docs/performance.md says (a fresh virtualenv, ``SPIELTISCH_COMPILE=1 pip install .``
with build isolation): it is compiled, and needed no compiler in the virtualenv.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import inspect
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
COMPILED = ROOT / "build" / "compiled"


def records(games_per_game: int = 4, searches: int = 3) -> dict[str, str]:
    """Per game, a digest of seeded random games and a few ISMCTS decisions."""
    from spieltisch.bots.base import Observation
    from spieltisch.bots.ismcts import ISMCTSBot
    from spieltisch.core import registry

    out = {}
    for name in registry.game_names():
        spec = registry.get_spec(name)
        digest = hashlib.sha256()
        for n in sorted({spec.min_players, spec.default_players, spec.max_players}):
            game = spec.configure(n)
            for seed in range(games_per_game):
                state = game.new_state(seed=seed)
                rng = random.Random(seed)
                for e in state.opening:
                    digest.update(json.dumps(e.full(), sort_keys=True).encode())
                steps = 0
                while not state.is_over() and steps < spec.max_actions:
                    seats = state.may_act()
                    seat = rng.choice(seats) if seats else -1
                    legal = state.legal_actions(seat) if seat >= 0 else []
                    if legal:
                        action = rng.choice(legal)
                    else:
                        deadline = state.deadlines()[0]
                        seat, action = deadline.seat, deadline.action
                    if steps % 7 == 0:
                        state = state.clone()  # copies must play on the same
                    events = state.apply(seat, action)
                    digest.update(f"{seat}:{action}:{legal}".encode())
                    for e in events:
                        digest.update(json.dumps([e.for_seat(s) for s in range(n)],
                                                 sort_keys=True, default=str).encode())
                    steps += 1
                digest.update(json.dumps(state.result().to_json()).encode())
        game = spec.configure()
        state = game.new_state(seed=7)
        for i in range(searches):
            seat = state.to_act()[0] if state.to_act() else state.may_act()[0]
            bot = ISMCTSBot(game, seat, seed=i, budget=30)
            action = bot.act(Observation(state, seat))
            digest.update(f"ismcts {seat}:{action}".encode())
            if action is None or state.is_over():
                break
            state.apply(seat, action)
        out[name] = digest.hexdigest()
    return out


def _run(pythonpath: Path) -> dict[str, object]:
    # compared, not measured: outside coverage each build plays three times as fast
    env = {k: v for k, v in os.environ.items() if not k.startswith("COVERAGE_PROCESS_")}
    env["PYTHONPATH"] = str(pythonpath)
    done = subprocess.run([sys.executable, __file__], capture_output=True, text=True,
                          env=env, cwd=str(ROOT), timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_both_builds_write_identical_records_in_every_game():
    if not (COMPILED / "spieltisch").is_dir():
        if os.environ.get("SPIELTISCH_REQUIRE_COMPILED"):
            pytest.fail(f"no compiled build in {COMPILED} (scripts/test.sh builds it)")
        pytest.skip("no compiled build (SPIELTISCH_COMPILE=1 pip install --target "
                    "build/compiled .)")
    pure, compiled = _run(ROOT / "src"), _run(COMPILED)
    assert (pure["build"], compiled["build"]) == ("pure Python", "compiled (mypyc)")
    assert compiled["records"] == pure["records"]
    from spieltisch.core import registry

    assert sorted(pure["records"]) == sorted(registry.game_names())


def test_each_game_s_copy_is_written_from_its_fields():
    """``_copy`` is the text ``FIELDS.copy_source`` gives (pure Python: the source)."""
    import spieltisch
    from spieltisch.core import registry

    if spieltisch.compiled():
        pytest.skip("the compiled build has no source to read")
    for name in registry.game_names():
        cls = type(registry.get_spec(name).configure().new_state(seed=0))
        assert cls.FIELDS is not None
        assert inspect.getsource(cls._copy) == cls.FIELDS.copy_source(cls.__name__), name


def test_each_game_s_generated_block_is_what_its_fields_give():
    """Each state module's block between the markers (``_copy`` and ``_empty_fields``)
    is the text its ``FIELDS`` generates (``python -m spieltisch.core.generated
    --write GAME`` rewrites it), and every field a plain value sets is set there. The
    project's games must have the block; another game may write ``_copy`` by hand."""
    import spieltisch
    from spieltisch.core import registry
    from spieltisch.core.fields import Copy
    from spieltisch.core.generated import generated, written

    if spieltisch.compiled():
        pytest.skip("the compiled build has no source to read")
    for name in registry.game_names():
        cls = type(registry.get_spec(name).configure().new_state(seed=0))
        block = written(Path(inspect.getfile(cls)))
        if block is None and not cls.__module__.startswith("spieltisch.games."):
            continue  # it writes _copy by hand (checked by the test above)
        assert block == generated(cls), \
            f"{name}: run python -m spieltisch.core.generated --write {name}"
        fields = cls.FIELDS
        assert fields is not None
        by_hand = [f for f in fields if fields.kinds[f] is not Copy.CACHE
                   and fields.empties[f] is None]
        assert bool(by_hand) == bool(fields.by_hand), name


def _compiled_modules() -> list[str]:
    """``setup.py``'s ``COMPILED``: the modules the compiled build compiles."""
    import runpy

    import setuptools

    original = setuptools.setup
    setuptools.setup = lambda **kwargs: None  # read the list; build nothing
    try:
        listed: list[str] = runpy.run_path(str(ROOT / "setup.py"))["COMPILED"]
    finally:
        setuptools.setup = original
    return listed


def test_setup_compiles_the_core_and_what_each_game_lists():
    """``setup.py`` gathers each game's ``COMPILED`` (read as text, the package not
    imported) beside the core's and the bots' base and search: each module once, each one a
    file, and every module each of the project's games lists."""
    listed = _compiled_modules()
    assert len(listed) == len(set(listed))
    assert all((ROOT / "src" / m).is_file() for m in listed)
    assert {"spieltisch/core/game.py", "spieltisch/core/phases.py",
            "spieltisch/bots/base.py", "spieltisch/bots/ismcts.py"} <= set(listed)
    for package in (ROOT / "src" / "spieltisch" / "games").iterdir():
        if (package / "__init__.py").is_file():  # COMPILED is optional (docs/engine.md)
            module = importlib.import_module(f"spieltisch.games.{package.name}")
            for name in getattr(module, "COMPILED", ()):
                assert f"spieltisch/games/{package.name}/{name}.py" in listed


def test_the_compiled_build_was_installed_as_the_docs_say() -> None:
    venv = ROOT / "build" / "compiled-venv"
    if not venv.is_dir():
        if os.environ.get("SPIELTISCH_REQUIRE_COMPILED") == "1":
            pytest.fail(f"no {venv} (scripts/test.sh makes it)")
        pytest.skip(f"no {venv} (scripts/test.sh makes it)")
    said = subprocess.run([str(venv / "bin" / "spieltisch"), "--version"],
                          capture_output=True, text=True, check=True).stdout
    assert said == "spieltisch 0.1.0, compiled (mypyc)\n"
    # mypy (mypyc) was in the build's own isolated environment, not in the virtualenv
    has_mypy = subprocess.run([str(venv / "bin" / "python"), "-c", "import mypy"],
                              capture_output=True)
    assert has_mypy.returncode != 0


#: A module constant's name (``KIND_TYPE``, ``_MIC_SAID``); ``TypeVar``s are not constants.
_CONSTANT = re.compile(r"^_?[A-Z][A-Z0-9_]*$")


def _bound(target: ast.expr) -> list[str]:
    """The names an assignment target binds (not those it writes into)."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [name for element in target.elts for name in _bound(element)]
    if isinstance(target, ast.Starred):
        return _bound(target.value)
    return []


def _unbound_constants(source: str) -> list[str]:
    """The constants a module binds at its top level (in its statements, and in the
    bodies of its top-level ``if``, ``for``, ``with`` and ``try``) other than once, as
    ``Final``: an unannotated or unpacked binding, or a rebinding (``|=``)."""
    found = []
    todo = list(ast.parse(source).body)
    while todo:
        node = todo.pop(0)
        if isinstance(node, (ast.If, ast.For, ast.While, ast.With, ast.Try)):
            for field in ("body", "orelse", "finalbody", "handlers"):
                todo += [n for n in getattr(node, field, []) if isinstance(n, ast.stmt)]
            for handler in getattr(node, "handlers", []):
                todo += handler.body
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            annotation = ast.unparse(node.annotation)
            if not annotation.startswith(("Final", "ClassVar")) and node.value is not None:
                found.append(node.target.id)
        elif isinstance(node, ast.AugAssign):
            found += _bound(node.target)
        elif isinstance(node, ast.Assign):
            if isinstance(node.value, ast.Call) \
                    and ast.unparse(node.value.func).endswith("TypeVar"):
                continue
            for target in node.targets:
                found += _bound(target)
    return [name for name in found if _CONSTANT.match(name)]


def test_compiled_modules_bind_their_constants_final():
    """Every constant of a compiled module is bound once, as ``Final``: compiled code reads
    a ``Final`` module name from a C static and any other by a dictionary lookup at every
    read (docs/performance.md, rule 11). The checker finds an unmarked constant, one
    unpacked from a tuple, and one rebound in a loop."""
    assert _unbound_constants(
        "A: Final = 1\nB = 2\nC, [D, *E] = x\nT = typing.TypeVar('T')\nF: int = 3\n"
        "lower = 4\nfor i in y:\n    if i:\n        G |= i\n") == ["B", "C", "D", "E", "F", "G"]
    modules = _compiled_modules()
    assert len(modules) > 30  # the core's, the search bot's and every game's
    unmarked = {module: names for module in modules
                if (names := _unbound_constants((ROOT / "src" / module).read_text("utf-8")))}
    assert unmarked == {}


if __name__ == "__main__":
    import spieltisch

    print(json.dumps({"build": spieltisch.build(), "records": records()}))
