"""The message catalogue: every sentence a player reads, in one place per language.

``t("evo.phase.movement")`` -> "Movement". Catalogues are TOML files beside this module
(``en.toml``; ``it.toml`` and ``fr.toml`` follow the same keys). A key missing from a
language falls back to English; a key missing everywhere is returned as is, so a gap shows
up in the text instead of crashing a game.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources

DEFAULT_LANG = "en"


def _flatten(prefix: str, table: dict, out: dict) -> None:
    for key, value in table.items():
        full = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict):
            _flatten(full, value, out)
        else:
            out[full] = value


@cache
def catalogue(lang: str) -> dict[str, str]:
    try:
        text = resources.files("messages").joinpath(f"{lang}.toml").read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    out: dict[str, str] = {}
    _flatten("", tomllib.loads(text), out)
    return out


def languages() -> list[str]:
    return sorted(p.name[:-5] for p in resources.files("messages").iterdir()
                  if p.name.endswith(".toml"))


class _Default(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def t(key: str, lang: str = DEFAULT_LANG, **params) -> str:
    """The sentence for ``key`` in ``lang`` with ``params`` filled in."""
    text = catalogue(lang).get(key)
    if text is None and lang != DEFAULT_LANG:
        text = catalogue(DEFAULT_LANG).get(key)
    if text is None:
        return key
    return text.format_map(_Default(params))


def has(key: str, lang: str = DEFAULT_LANG) -> bool:
    return key in catalogue(lang)
