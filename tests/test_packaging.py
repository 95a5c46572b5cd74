"""Reproducible builds: pyproject.toml is the only list of dependencies, the lock files made
from it pin every package with hashes, the image and CI install from them, and the image
leaves out what the bot does not run."""

from __future__ import annotations

import ast
import json
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PROJECT = PYPROJECT["project"]


def locked(name: str) -> dict[str, str]:
    """A lock file's pins: canonical name -> version (each with its hashes, checked)."""
    text = (ROOT / name).read_text()
    entries = re.split(r"\n(?=[A-Za-z0-9])", text.split("\n", 2)[2])  # after the header
    pins = {}
    for entry in entries:
        match = re.match(r"([A-Za-z0-9_.-]+)==(\S+?)\s*(?:;[^\\]*)?\\", entry)
        assert match, f"{name}: not an exact pin: {entry.splitlines()[0]}"
        assert re.search(r"--hash=sha256:[0-9a-f]{64}", entry), f"{name}: {match[1]} has no hash"
        pins[canonicalize_name(match[1])] = match[2]
    return pins


def test_pyproject_lists_every_dependency_and_describes_the_four_games():
    names = {canonicalize_name(Requirement(r).name) for r in PROJECT["dependencies"]}
    assert {"discord-py", "aiosqlite", "pillow", "openskill", "asyncpg",
            "prometheus-client"} <= names
    assert "EVO first" not in PROJECT["description"]
    assert all(game in PROJECT["description"] for game in ("EVO", "Cubosaurs", "Climate"))


def test_the_lock_files_pin_every_package_with_hashes_and_fit_pyproject():
    runtime, dev = locked("requirements.txt"), locked("requirements-dev.txt")
    for text in ((ROOT / "requirements.txt").read_text(),
                 (ROOT / "requirements-dev.txt").read_text()):
        assert "sh scripts/lock.sh" in text.splitlines()[1]  # made by the documented command
    for spec, pins in ([(r, runtime) for r in PROJECT["dependencies"]]
                       + [(r, dev) for r in PROJECT["dependencies"]]
                       + [(r, dev) for r in PROJECT["optional-dependencies"]["test"]]):
        requirement = Requirement(spec)
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is not locked"
        assert requirement.specifier.contains(pins[name], prereleases=True), (name, pins[name])
    # the tests run with the versions the bot runs with
    assert {name: dev[name] for name in runtime} == runtime
    assert not (ROOT / "requirements.in").exists()  # no second list of dependencies


def third_party_imports() -> set[str]:
    modules, local = set(), set()
    paths = [p for p in ROOT.rglob("*.py") if not any(
        part.startswith(".") or part in ("venv", "__pycache__")
        for part in p.relative_to(ROOT).parts)]
    for path in paths:  # a module of the project (or a script's sibling in bench/)
        local |= {path.stem, *path.relative_to(ROOT).parts[:-1]}
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                modules |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules.add(node.module.split(".")[0])
    return {m for m in modules - local if m not in sys.stdlib_module_names}


def test_every_package_the_code_imports_is_locked():
    dev = locked("requirements-dev.txt")
    distributions = packages_distributions()
    for module in sorted(third_party_imports()):
        names = {canonicalize_name(d) for d in distributions.get(module, [module])}
        assert names & set(dev), f"import {module}: no locked package provides it"


def test_the_image_installs_the_lock_and_runs_the_bot_in_exec_form():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.search(r"pip install --require-hashes --no-deps -r \S*requirements\.txt", dockerfile)
    assert "requirements-dev" not in dockerfile
    [cmd] = re.findall(r"^CMD (.*)$", dockerfile, re.M)
    assert json.loads(cmd) == ["python", "bot.py"]  # exec form: the bot gets SIGTERM
    ci = (ROOT / ".ci" / "run").read_text()
    readme = (ROOT / "README.md").read_text()
    assert "exec sh scripts/test.sh" in ci.splitlines() and "\nsh scripts/test.sh\n" in readme
    script = (ROOT / "scripts" / "test.sh").read_text().splitlines()  # CI's one command
    assert "python -m pip install -q -r requirements-dev.txt" in script
    assert script[-2:] == ["python -m ruff check .", 'exec python -m pytest "$@"']


def test_the_image_and_git_leave_out_virtual_environments_tests_and_tools():
    ignored = {line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")}
    assert {".venv", "tests", "bench", "fakediscord", ".git", "config.toml"} <= ignored
    for needed in ("bot.py", "configuration.py", "demo.py", "config.example.toml", "cogs",
                   "engine", "host", "images", "messages", "store"):
        assert needed not in ignored
    assert ".venv/" in (ROOT / ".gitignore").read_text().splitlines()


def test_pytest_asyncio_fixture_loop_scope_is_set(pytestconfig):
    """pytest-asyncio warned on every run that it was unset."""
    assert pytestconfig.getini("asyncio_default_fixture_loop_scope") == "function"
