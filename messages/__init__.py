"""The message catalogue: every sentence a player reads, in one place per language.

``t("evo.phase.movement")`` -> "Movement". Each language is a folder of TOML files beside
this module (``en/bot.toml``, ``en/evo.toml``, ``en/cubosaurs.toml``, ``en/mutations.toml``...;
``it/`` and ``fr/`` follow the same keys), merged into one catalogue with the catalogue folder
of a registered game that keeps its words elsewhere (``GameDescription.catalogue``). Each
game words its own events and refusals in its message module (``messages/<kind>.py``, named
by its description), reached through :func:`describe` and :func:`explain`. A key missing from a language falls back
to English; a key missing everywhere is returned as is, so a gap shows up in the text
instead of crashing a game.
"""

from __future__ import annotations

import tomllib
import unicodedata
from collections.abc import Iterable
from functools import cache
from importlib import resources
from pathlib import Path

DEFAULT_LANG = "en"


def _flatten(prefix: str, table: dict, out: dict) -> None:
    for key, value in table.items():
        full = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict):
            _flatten(full, value, out)
        else:
            out[full] = value


def catalogue(lang: str) -> dict[str, str]:
    """Every sentence of ``lang``: ``messages/<lang>/*.toml`` and the ``<lang>/*.toml`` of the
    catalogue folder of each registered game that has one (its description's
    ``catalogue``)."""
    from engine.core import catalogue_folders

    return _catalogue(lang, catalogue_folders())


@cache
def _catalogue(lang: str, extra: tuple[str, ...]) -> dict[str, str]:
    out: dict[str, str] = {}
    folders = [(f"messages/{lang}", resources.files("messages").joinpath(lang))]
    folders += [(f"{root}/{lang}", Path(root) / lang) for root in extra]
    for name, folder in folders:
        if not folder.is_dir():
            continue
        for part in sorted(folder.iterdir(), key=lambda p: p.name):
            if part.name.endswith(".toml"):
                table = tomllib.loads(part.read_text(encoding="utf-8"))
                before = len(out)
                flat: dict[str, str] = {}
                _flatten("", table, flat)
                out.update(flat)
                if len(out) != before + len(flat):
                    raise ValueError(f"{name}/{part.name} repeats a key of another file")
    return out


@cache
def languages() -> list[str]:
    return sorted(p.name for p in resources.files("messages").iterdir()
                  if p.is_dir() and any(f.name.endswith(".toml") for f in p.iterdir()))


def catalogue_lang(locale) -> str | None:
    """The catalogue language for a Discord locale (``"fr"``, ``"it"``, ``"en-US"``...), or
    None when the catalogue does not speak it (``"ja"``)."""
    lang = str(getattr(locale, "value", locale) or "").split("-")[0].lower()
    return lang if lang in languages() else None


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


def fold(text: str) -> str:
    """Text as names are compared: case, accents, spaces and punctuation ignored
    (``"Pondeuse musclée"`` and ``"PONDEUSE MUSCLEE"`` fold to the same thing)."""
    decomposed = unicodedata.normalize("NFKD", str(text).casefold())
    return "".join(c for c in decomposed if c.isalnum())


def resolve(text: str, ids: Iterable[str], key: str) -> str | None:
    """The id among ``ids`` that ``text`` names: the id itself, or its name
    (``key.format(id=...)``) in any catalogue language. None when nothing matches."""
    want = fold(text)
    if not want:
        return None
    for i in ids:
        if want == fold(i) or any(want == fold(t(key.format(id=i), lang))
                                  for lang in languages()):
            return i
    return None


def _game_messages(kind: str):
    """The module that words one game's events and errors (its description's ``messages``,
    ``messages/<kind>.py`` for the built-in games)."""
    import importlib

    from engine.core import description

    module = description(kind).messages
    if module is None:
        raise ValueError(f"no message module for game kind {kind!r}")
    return importlib.import_module(module)


def describe(kind: str, event: dict, names: list[str], lang: str = DEFAULT_LANG) -> str | None:
    """One line for a game event (None for events not worth a line). The host's own events,
    the same in every game, are worded here: ``{"type": "undo", "player": seat}`` (a player
    took back their last move, ``GameHost.undo``; nothing when it has ``"secret": True``: a
    secret move in a simultaneous step, which the table did not show either)."""
    if event.get("type") == "undo":
        if event.get("secret"):
            return None
        p = event.get("player")
        who = names[p] if isinstance(p, int) and 0 <= p < len(names) else "?"
        return t("bot.undo.done", lang, player=who)
    return _game_messages(kind).describe(event, names, lang)


def explain(kind: str, error, names: list[str] | None = None, lang: str = DEFAULT_LANG) -> str:
    """The sentence for an action that a game's rules refused (an ``IllegalAction``)."""
    return _game_messages(kind).explain(error, names, lang)
