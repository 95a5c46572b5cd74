"""The contract suite: every registered game (``engine.core.game_kinds()``) through the same
checks (``tests/contract.py``), as OpenSpiel runs its game tests over all its games; and the
engine's import graph has no circle.

Every player count of every game is played (its options in turn); seeds are fixed so that a
failure replays (``DARWIN_CONTRACT_SEEDS=<n>`` plays n seeds of each instead of one, for a
soak run)."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

from engine.core import game_kinds
from tests import contract

SEEDS = range(int(os.environ.get("DARWIN_CONTRACT_SEEDS", "1") or 1))
CASES = [pytest.param(kind, n, options, seed, id=f"{kind}-{n}p-{seed}")
         for kind in game_kinds() for n, options in contract.configs(kind) for seed in SEEDS]
KINDS = [pytest.param(kind, id=kind) for kind in game_kinds()]


def first_case(kind: str) -> tuple[int, dict]:
    return contract.configs(kind)[0]


@pytest.mark.parametrize("kind, n, options, seed", CASES)
def test_random_games_end(kind, n, options, seed):
    contract.check_random_game(kind, n, 100 + seed, options)


@pytest.mark.parametrize("kind, n, options, seed", CASES)
def test_illegal_actions_change_nothing(kind, n, options, seed):
    assert contract.check_illegal_actions(kind, n, 200 + seed, options) > 0


@pytest.mark.parametrize("kind, n, options, seed", CASES)
def test_save_load_at_every_step(kind, n, options, seed):
    contract.check_save_load(kind, n, 300 + seed, options)


@pytest.mark.parametrize("kind, n, options, seed", CASES)
def test_replay_is_exact(kind, n, options, seed):
    contract.check_replay(kind, n, 400 + seed, options)


@pytest.mark.parametrize("kind, n, options, seed", CASES)
def test_views_hide_what_they_must(kind, n, options, seed):
    assert contract.check_views(kind, n, 500 + seed, options) > 0


@pytest.mark.parametrize("kind", KINDS)
def test_every_ai_level_answers_a_legal_action(kind):
    n, options = first_case(kind)
    assert contract.check_ai_levels(kind, n, 600, options) > 0


@pytest.mark.parametrize("kind", KINDS)
def test_render(kind):
    n, options = contract.configs(kind)[-1]
    assert contract.check_render(kind, n, 700, options) == 4


@pytest.mark.parametrize("kind", KINDS)
def test_demo(kind, tmp_path):
    n, options = first_case(kind)
    contract.check_demo(kind, n, 800, tmp_path, options)


# --- the import graph -------------------------------------------------------------------------

ENGINE = Path(__file__).resolve().parent.parent / "engine"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ENGINE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def top_level_imports(tree: ast.Module, here: str, modules: set[str]) -> set[str]:
    """The engine modules a module imports when it is loaded: its top-level imports (not those
    inside functions, nor under ``if TYPE_CHECKING``); ``from package import name`` counts
    as the submodule when ``name`` is one."""
    out: set[str] = set()

    def visit(body) -> None:
        for node in body:
            if isinstance(node, ast.If):
                test = node.test
                if isinstance(test, ast.Name) and test.id == "TYPE_CHECKING":
                    visit(node.orelse)
                    continue
                visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)
            elif isinstance(node, ast.Import):
                out.update(a.name for a in node.names if a.name in modules)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for a in node.names:
                    sub = f"{node.module}.{a.name}"
                    if sub in modules:
                        out.add(sub)
                    elif node.module in modules:
                        out.add(node.module)

    visit(tree.body)
    out.discard(here)
    return out


def import_graph() -> dict[str, set[str]]:
    files = sorted(ENGINE.rglob("*.py"))
    modules = {module_name(f) for f in files}
    return {module_name(f): top_level_imports(ast.parse(f.read_text(encoding="utf-8")),
                                              module_name(f), modules)
            for f in files}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def walk(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for d in sorted(graph.get(m, ())):
            if state.get(d) == 1:
                return path[path.index(d):] + [d]
            if d not in state:
                found = walk(d)
                if found:
                    return found
        path.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            found = walk(m)
            if found:
                return found
    return None


def test_engine_modules_import_no_circle():
    """No engine module imports, directly or not, one that imports it back (a package's
    ``__init__`` counts as its own module, importing its submodules)."""
    graph = import_graph()
    assert "engine.evo.rules" in graph and "engine.evo.cards" in graph["engine.evo.rules"]
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph))


def test_the_circle_check_sees_a_circle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
