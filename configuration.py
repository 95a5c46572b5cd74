"""Darwin's configuration, read and checked in one place before anything starts.

``load_config(path)`` reads ``path`` (``--config FILE``; else ``config.toml`` when it exists)
over the defaults below, applies the environment variables of ``ENVIRONMENT`` (a variable set
to a non-empty value wins over the file), and checks every key: its type, its range or
choices, and that the file names no key or section Darwin does not know (a typo is not
silently ignored). It returns a plain dict, ``{section: {key: value}}``, every key present,
values in the type Darwin uses (``shard_ids`` a list of ints, ``level`` upper case...).
Anything wrong raises ``ConfigError``: one sentence per fault, naming the file (or the
environment variable), the key and what is allowed; ``bot.py`` prints them and exits with 2.

Hand-written rather than pydantic: 19 keys, each sentence is worded for the operator (the
file or the variable, the key, what is allowed), which pydantic's errors would have to be
rewritten into anyway, and no package is added to the image for it.
``config.example.toml`` documents every key with these defaults (a test keeps them equal).
"""

from __future__ import annotations

import difflib
import json
import math
import os
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.ai import LEVELS
from host.settings import MAX_AI_DELAY, MAX_TIMER, MIN_TIMER
from messages import languages

DEFAULT_CONFIG = Path("config.toml")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class ConfigError(Exception):
    """The configuration cannot be used: ``faults`` are sentences for the operator."""

    def __init__(self, faults: list[str]) -> None:
        super().__init__("\n".join(faults))
        self.faults = faults


class Refused(ValueError):
    """A value a key does not take (the key's ``allowed`` says what it takes)."""


@dataclass(frozen=True)
class Key:
    default: Any
    allowed: str  # what the key takes, as the end of "it must be ..."
    check: Callable[[Any, bool], Any]  # (value, given as text?) -> the value kept; Refused
    secret: bool = False  # never echo the value (a token, a URL with a password)


# --- what a key takes -------------------------------------------------------------------------


def _text(nonempty: bool = False):
    def check(value, _text_given):
        if not isinstance(value, str) or (nonempty and not value.strip()):
            raise Refused
        return value.strip() if nonempty else value
    return check


def _choice(options, fold=str.lower):
    def check(value, _text_given):
        if not isinstance(value, str) or fold(value.strip()) not in options:
            raise Refused
        return fold(value.strip())
    return check


def _number(low: float, high: float, *, whole: bool = False, or_zero: bool = False):
    """A number from ``low`` to ``high`` (or 0 when ``or_zero``); text only from the
    environment."""
    def check(value, text_given):
        if text_given and isinstance(value, str):
            try:
                value = int(value.strip()) if whole else float(value.strip())
            except ValueError:
                raise Refused from None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise Refused
        if whole and not isinstance(value, int):
            raise Refused
        if not math.isfinite(value) or not (low <= value <= high or (or_zero and value == 0)):
            raise Refused
        return value
    return check


def _flag(value, text_given):
    if text_given and isinstance(value, str):
        words = value.strip().lower()
        if words in ("1", "true", "yes", "on"):
            return True
        if words in ("0", "false", "no", "off"):
            return False
    if not isinstance(value, bool):
        raise Refused
    return value


def _discord_id(value, _text_given):
    """A Discord id (a server's, for dev_guild): a whole number, or its digits as a string."""
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2 ** 64:
        raise Refused
    return value


def _shard_ids(value, text_given):
    if text_given and isinstance(value, str):
        parts = [p.strip() for p in value.split(",")]
        if not all(p.isdigit() for p in parts):
            raise Refused
        return [int(p) for p in parts]
    if not isinstance(value, list) or not all(
            isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in value):
        raise Refused
    return value


def _database_url(value, _text_given):
    if not isinstance(value, str):
        raise Refused
    value = value.strip()
    if value and not value.startswith(POSTGRES_SCHEMES):
        raise Refused
    return value


def _base_url(value, _text_given):
    """Empty, or an http(s) URL without query or fragment; kept without its last '/'."""
    if not isinstance(value, str):
        raise Refused
    value = value.strip()
    if value and (not re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?", value)):
        raise Refused
    return value.rstrip("/")


def _quoted(words) -> str:
    words = [f'"{w}"' for w in words]
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]


SCHEMA: dict[str, dict[str, Key]] = {
    "discord": {
        "token": Key("", "a string (the bot's token)", _text(), secret=True),
        "dev_guild": Key(0, "a server id (a whole number, 0 = none)", _discord_id),
        "shard_count": Key(0, "a whole number from 0 to 65536 (0 = let Discord decide)",
                           _number(0, 2 ** 16, whole=True)),
        "shard_ids": Key([], "a list of whole numbers such as [0, 1] (\"0,1\" in the "
                             "environment); [] = every shard", _shard_ids),
    },
    "storage": {
        "database": Key("data/darwin.sqlite3", "the path of the SQLite file (not empty)",
                        _text(nonempty=True)),
        "database_url": Key("", "empty (SQLite) or a postgresql://USER:PASSWORD@HOST:PORT/DB "
                                "URL", _database_url, secret=True),
    },
    "games": {
        "turn_timer": Key(0, f"0 (no timer) or a number of seconds from {MIN_TIMER:g} to "
                             f"{MAX_TIMER:g}", _number(MIN_TIMER, MAX_TIMER, or_zero=True)),
        "ai_delay": Key(1.5, f"a number of seconds from 0 to {MAX_AI_DELAY:g}",
                        _number(0, MAX_AI_DELAY)),
        "window_delay": Key(2.0, "a number of seconds from 0 to 60", _number(0, 60)),
        "nudge_delay": Key(20.0, "a number of seconds from 0 to 3600", _number(0, 3600)),
        "ai_level": Key("fast", _quoted(LEVELS), _choice(LEVELS)),
        "ai_workers": Key(1, "a whole number of processes from 0 to 64 (0: the expert level "
                             "plays the fast one)", _number(0, 64, whole=True)),
        "ai_seconds": Key(1.0, "a number of seconds from 0.1 to 30", _number(0.1, 30)),
        "language": Key("en", _quoted(languages()), _choice(languages())),
    },
    "logging": {
        "level": Key("INFO", _quoted(LOG_LEVELS), _choice(LOG_LEVELS, fold=str.upper)),
    },
    # The health and metrics HTTP endpoint (/healthz, /metrics): off unless enabled.
    "health": {
        "enabled": Key(False, "true or false", _flag),
        "host": Key("127.0.0.1", "an address to listen on, such as \"127.0.0.1\" (this "
                                 "machine only) or \"0.0.0.0\"", _text(nonempty=True)),
        "port": Key(8080, "a port number from 1 to 65535", _number(1, 65535, whole=True)),
    },
    # The read-only web page of the games (web/): off unless enabled; its own address, never
    # the one of [health] (so /healthz and /metrics never become public with it).
    "web": {
        "enabled": Key(False, "true or false", _flag),
        "host": Key("127.0.0.1", "an address to listen on, such as \"127.0.0.1\" (behind a "
                                 "reverse proxy on this machine) or \"0.0.0.0\"",
                    _text(nonempty=True)),
        "port": Key(8081, "a port number from 1 to 65535", _number(1, 65535, whole=True)),
        "base_url": Key("", "the public address of the pages, such as "
                            "\"https://darwin.example.org\" (http:// or https://, no query)",
                        _base_url),
        "rate": Key(20.0, "a number of requests per second from 1 to 1000", _number(1, 1000)),
        "burst": Key(40, "a whole number of requests from 1 to 10000",
                     _number(1, 10000, whole=True)),
        "trusted_proxy": Key(False, "true or false", _flag),
    },
}

# Environment variables that win over the file when set to something other than blanks.
ENVIRONMENT: dict[str, tuple[str, str]] = {
    "DISCORD_TOKEN": ("discord", "token"),
    "DARWIN_SHARD_COUNT": ("discord", "shard_count"),
    "DARWIN_SHARD_IDS": ("discord", "shard_ids"),
    "DARWIN_DATABASE": ("storage", "database"),
    "DATABASE_URL": ("storage", "database_url"),
    "DARWIN_LOG_LEVEL": ("logging", "level"),
    "DARWIN_HEALTH_ENABLED": ("health", "enabled"),
    "DARWIN_HEALTH_HOST": ("health", "host"),
    "DARWIN_HEALTH_PORT": ("health", "port"),
    "DARWIN_WEB_ENABLED": ("web", "enabled"),
    "DARWIN_WEB_HOST": ("web", "host"),
    "DARWIN_WEB_PORT": ("web", "port"),
    "DARWIN_WEB_BASE_URL": ("web", "base_url"),
}


def defaults() -> dict:
    return {section: {name: (list(key.default) if isinstance(key.default, list) else key.default)
                      for name, key in keys.items()} for section, keys in SCHEMA.items()}


# --- reading ----------------------------------------------------------------------------------


def _shown(value) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _listed(words: list[str]) -> str:
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else words[0]


def _guess(name: str, known, shown: str = "{}") -> str:
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" (did you mean {shown.format(close[0])}?)" if close else ""


def read_toml(path: Path) -> dict:
    """The file's tables, or ConfigError with one sentence (the line and what is wrong)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ConfigError([f"The configuration file {path} does not exist (python bot.py "
                           f"--config FILE names another; see config.example.toml)."]) from None
    except OSError as exc:
        raise ConfigError([f"The configuration file {path} cannot be read "
                           f"({exc.strerror or exc})."]) from None
    try:
        text = data.decode("utf-8")
        return tomllib.loads(text)
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise ConfigError([f"{path}, line {line}: the file is not UTF-8 text, as TOML must "
                           f"be."]) from None
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        match = re.fullmatch(r"(.*) \(at line (\d+), column (\d+)\)", message, re.S)
        if match:
            what, where = match[1], f"line {match[2]}, column {match[3]}"
        else:
            what = re.sub(r" \(at end of document\)$", "", message)
            where = f"line {text.count(chr(10)) + 1} (the end of the file)"
        raise ConfigError([f"{path}, {where}: this is not valid TOML: "
                           f"{what[:1].lower()}{what[1:]}."]) from None


def _check_file(name: str, tables: dict, config: dict, faults: list[str]) -> None:
    for section, values in tables.items():
        if section not in SCHEMA:
            home = [s for s, keys in SCHEMA.items() if section in keys]
            if home and not isinstance(values, dict):
                faults.append(f"{name}: {section} belongs in the [{home[0]}] section, not at "
                              f"the top of the file.")
            else:
                faults.append(f"{name}: [{section}] is not a section{_guess(section, SCHEMA, '[{}]')}; "
                              f"the sections are "
                              f"{_listed([f'[{s}]' for s in SCHEMA])}.")
            continue
        if not isinstance(values, dict):
            faults.append(f"{name}: {section} must be a section ([{section}] on a line of its "
                          f"own, its settings below it), not a value.")
            continue
        keys = SCHEMA[section]
        for key, value in values.items():
            if key not in keys:
                faults.append(f"{name}: [{section}] {key} is not a setting{_guess(key, keys)}; "
                              f"the settings of [{section}] are {_listed(list(keys))}.")
                continue
            try:
                config[section][key] = keys[key].check(value, False)
            except Refused:
                said = "" if keys[key].secret else f" = {_shown(value)}"
                faults.append(f"{name}: [{section}] {key}{said} is not allowed: it must be "
                              f"{keys[key].allowed}.")


def _check_environment(environ, config: dict, faults: list[str]) -> None:
    for variable, (section, key) in ENVIRONMENT.items():
        value = environ.get(variable)
        if value is None or not value.strip():
            continue
        spec = SCHEMA[section][key]
        try:
            config[section][key] = spec.check(value, True)
        except Refused:
            said = "" if spec.secret else f"={_shown(value)}"
            faults.append(f"The environment variable {variable}{said} ([{section}] {key}) is "
                          f"not allowed: it must be {spec.allowed}.")


def load_config(path: Path | None = None, environ=None) -> dict:
    """The configuration Darwin runs with: the defaults, then ``path`` (or ``config.toml``
    when it exists), then the environment; checked (ConfigError lists every fault)."""
    environ = os.environ if environ is None else environ
    config = defaults()
    faults: list[str] = []
    chosen = path if path is not None else (DEFAULT_CONFIG if DEFAULT_CONFIG.exists() else None)
    if chosen is not None:
        _check_file(str(chosen), read_toml(Path(chosen)), config, faults)
    _check_environment(environ, config, faults)
    if not faults:  # shard_count and shard_ids together (each one is fine by itself)
        from host.shards import ShardConfigError, shard_plan

        try:
            shard_plan(config["discord"])
        except ShardConfigError as exc:
            faults.append(str(exc))
    web, health = config["web"], config["health"]
    if not faults and web["enabled"] and not web["base_url"]:
        faults.append("[web] base_url must be set when [web] enabled is true: it is the public "
                      "address the links given on Discord start with (DARWIN_WEB_BASE_URL).")
    if not faults and web["enabled"] and health["enabled"] and web["port"] == health["port"] \
            and web["host"] == health["host"]:
        faults.append("[web] and [health] listen on the same address: give [web] a port of its "
                      "own (the web page is public, /healthz and /metrics must not be).")
    if faults:
        raise ConfigError(faults)
    return config
