"""The README is for installing, running and operating Darwin; each game's guide is a page
of its own under docs/; every link leads somewhere inside the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from configuration import ENVIRONMENT

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
GAMES = {"evo": "/evo move", "cubosaurs": "/cubosaurs keep", "mutations": "/mutations species",
         "climate": "/climate food card"}


def sections(text: str) -> dict[str, str]:
    parts = re.split(r"(?m)^## ", text)[1:]
    return {p.split("\n", 1)[0].strip(): p for p in parts}


def test_each_game_has_its_own_page_linked_from_the_readme():
    for game, command in GAMES.items():
        page = ROOT / "docs" / "games" / f"{game}.md"
        assert f"(docs/games/{game}.md)" in README
        assert command in page.read_text()  # the game's own commands are there
        assert command not in README  # and no longer in the README
    assert "(docs/playing.md)" in README
    assert not [name for name in sections(README) if name.startswith("Playing")]


@pytest.mark.parametrize("path", ["README.md", "docs/playing.md", "docs/games/evo.md",
                                  "docs/games/cubosaurs.md", "docs/games/mutations.md",
                                  "docs/games/climate.md"])
def test_every_link_stays_in_the_repository_and_exists(path):
    text = (ROOT / path).read_text()
    assert "../shared" not in text
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
        if re.match(r"[a-z]+://", target):
            continue
        resolved = ((ROOT / path).parent / target).resolve()
        assert resolved.is_relative_to(ROOT) and resolved.exists(), f"{path}: {target}"


def test_the_readme_says_where_rule_decisions_are_recorded():
    assert "Rulebooks: `../shared/rules/`" not in README
    assert "(docs/rules-decisions.md)" in README


def test_the_readme_has_an_operating_section():
    operating = sections(README)["Operating Darwin"]
    for topic in ("**Health.**", "**Metrics.**", "**Stop.**", "**Upgrade.**",
                  "**Backups of the SQLite file.**", "**Backups of PostgreSQL.**",
                  "**Exit status.**"):
        assert topic in operating
    assert ".backup" in operating and "pg_dump" in operating and "pg_restore" in operating


def test_the_readme_documents_every_environment_variable():
    table = sections(README)["Configuration and environment"]
    for variable in ENVIRONMENT:
        assert f"`{variable}`" in table
    assert "DARWIN_DATABASE" in table and "/data/darwin.sqlite3" in table
