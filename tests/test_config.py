"""The configuration is checked in one place before anything starts (configuration.py):
every key's type, range and choices, unknown keys and sections named, the environment
included; each fault is one sentence naming the file (or variable), the key and what is
allowed, and ``python bot.py`` exits with 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import bot
from configuration import ENVIRONMENT, SCHEMA, ConfigError, defaults, load_config

ROOT = Path(__file__).resolve().parent.parent
CLEAN_ENV = {k: v for k, v in os.environ.items()
             if k not in ENVIRONMENT and not k.startswith("DARWIN_")}


def run_bot(tmp_path: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """``python bot.py ARGS`` in an empty folder, without the variables Darwin reads."""
    return subprocess.run([sys.executable, str(ROOT / "bot.py"), *args], cwd=tmp_path,
                          env=dict(CLEAN_ENV, **(env or {})), capture_output=True, text=True,
                          timeout=60)


def one_sentence(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


# What the issue saw accepted (or failing with a traceback) today.
ISSUE_CASES = [
    ('[logging]\nlevel = "LOUD"\n', "[logging] level", '"LOUD"', '"INFO"'),
    ('[games]\nai_level = "hard"\n', "[games] ai_level", '"hard"', '"strong" or "expert"'),
    ('[games]\nlanguage = "de"\n', "[games] language", '"de"', '"en", "fr" or "it"'),
    ("[games]\nturn_timer = -5\n", "[games] turn_timer", "-5", "from 10 to 86400"),
    ('[games]\nturn_timer = "abc"\n', "[games] turn_timer", '"abc"', "0 (no timer)"),
    ("[games]\nai_delay = 1e9\n", "[games] ai_delay", "1000000000.0", "from 0 to 30"),
    ('[discord]\ndev_guild = "my-server"\n', "[discord] dev_guild", '"my-server"',
     "a server id"),
]


@pytest.mark.parametrize("text,key,value,allowed", ISSUE_CASES)
def test_a_bad_value_stops_python_bot_py_with_one_sentence(tmp_path, text, key, value, allowed):
    (tmp_path / "bad.toml").write_text(text)
    sentence = one_sentence(run_bot(tmp_path, "--config", "bad.toml"))
    assert sentence.startswith(f"bad.toml: {key} = {value} is not allowed: it must be ")
    assert allowed in sentence
    assert not (tmp_path / "data").exists()  # nothing opened


def test_malformed_toml_is_one_sentence_with_its_line(tmp_path):
    (tmp_path / "config.toml").write_text('[discord]\ntoken = "abc"\n\n[games\nai_delay = 1\n')
    sentence = one_sentence(run_bot(tmp_path))  # config.toml is read when no --config
    assert sentence.startswith("config.toml, line 4, column 7: this is not valid TOML: ")
    (tmp_path / "config.toml").write_text('[discord]\ntoken = "abc\n')
    assert one_sentence(run_bot(tmp_path)).startswith("config.toml, line 2, ")


def test_a_missing_configuration_file_is_one_sentence(tmp_path):
    sentence = one_sentence(run_bot(tmp_path, "--config", "nowhere.toml"))
    assert sentence.startswith("The configuration file nowhere.toml does not exist")


def test_every_fault_is_named_at_once(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('[games]\nai_level = "hard"\nlanguage = "de"\n[logging]\nlevel = "LOUD"\n')
    with pytest.raises(ConfigError) as err:
        load_config(path, environ={})
    assert len(err.value.faults) == 3
    assert all(f.startswith(f"{path}: [") and f.endswith(".") and "\n" not in f
               for f in err.value.faults)


@pytest.mark.parametrize("text,sentence", [
    ("[games]\nai_levle = \"strong\"\n",
     "bad.toml: [games] ai_levle is not a setting (did you mean ai_level?); the settings of "
     "[games] are turn_timer, ai_delay, window_delay, nudge_delay, ai_level, ai_workers, "
     "ai_seconds and language."),
    ("[gmaes]\nai_level = \"strong\"\n",
     "bad.toml: [gmaes] is not a section (did you mean [games]?); the sections are "
     "[discord], [storage], [games], [logging], [health] and [web]."),
    ('token = "abc"\n', "bad.toml: token belongs in the [discord] section, not at the top of "
                        "the file."),
    ("games = 3\n", "bad.toml: games must be a section ([games] on a line of its own, its "
                    "settings below it), not a value."),
])
def test_unknown_keys_and_sections_are_named(tmp_path, text, sentence):
    (tmp_path / "bad.toml").write_text(text)
    assert one_sentence(run_bot(tmp_path, "--config", "bad.toml")) == sentence


@pytest.mark.parametrize("section,key,value", [
    ("discord", "shard_count", -1), ("discord", "shard_count", 1.5),
    ("discord", "shard_ids", [0, "1"]), ("discord", "shard_ids", "0,1"),
    ("discord", "dev_guild", -3), ("discord", "dev_guild", True), ("discord", "token", 123),
    ("storage", "database", ""), ("storage", "database_url", "mysql://u:p@h/d"),
    ("games", "turn_timer", 5), ("games", "turn_timer", 86401), ("games", "ai_delay", -1),
    ("games", "ai_delay", float("nan")), ("games", "window_delay", 61),
    ("games", "nudge_delay", "20"), ("games", "ai_level", 2), ("logging", "level", "LOUDER"),
    ("health", "enabled", "yes"), ("health", "host", ""), ("health", "port", 0),
    ("health", "port", 70000), ("health", "port", 8080.0),
])
def test_each_key_refuses_what_it_does_not_take(tmp_path, section, key, value):
    text = "nan" if value != value else json.dumps(value)  # JSON's scalars and lists are TOML's
    path = tmp_path / "bad.toml"
    path.write_text(f"[{section}]\n{key} = {text}\n")
    with pytest.raises(ConfigError) as err:
        load_config(path, environ={})
    [fault] = err.value.faults
    assert fault.startswith(f"{path}: [{section}] {key}") and "\n" not in fault
    assert fault.endswith(f"is not allowed: it must be {SCHEMA[section][key].allowed}.")


def test_secrets_are_never_repeated(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('[storage]\ndatabase_url = "mysql://darwin:hunter2@db/darwin"\n')
    with pytest.raises(ConfigError) as err:
        load_config(path, environ={})
    assert "hunter2" not in str(err.value)
    with pytest.raises(ConfigError) as err:
        load_config(None, environ={"DATABASE_URL": "mysql://darwin:hunter2@db/darwin"})
    assert "hunter2" not in str(err.value) and "DATABASE_URL" in str(err.value)


def test_values_are_kept_as_darwin_uses_them(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[discord]\ndev_guild = "123456789012345678"\nshard_count = 2\n'
                    'shard_ids = [1]\n[logging]\nlevel = "debug"\n[games]\nturn_timer = 90\n'
                    'ai_level = " Strong "\n[health]\nenabled = true\nport = 9100\n')
    config = load_config(path, environ={})
    assert config["discord"]["dev_guild"] == 123456789012345678
    assert config["logging"]["level"] == "DEBUG"
    assert config["games"]["ai_level"] == "strong"
    assert config["games"]["turn_timer"] == 90
    assert config["health"] == {"enabled": True, "host": "127.0.0.1", "port": 9100}
    assert config["games"]["ai_delay"] == 1.5  # a key left out keeps its default


# --- the environment --------------------------------------------------------------------------

def test_the_environment_wins_over_the_file(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[discord]\ntoken = "from-file"\n[storage]\ndatabase = "file.sqlite3"\n')
    environ = {"DISCORD_TOKEN": "from-env", "DARWIN_DATABASE": "/data/env.sqlite3",
               "DATABASE_URL": "postgresql://u:p@db:5432/darwin", "DARWIN_SHARD_COUNT": "4",
               "DARWIN_SHARD_IDS": "1, 3", "DARWIN_LOG_LEVEL": "warning",
               "DARWIN_HEALTH_ENABLED": "1", "DARWIN_HEALTH_HOST": "0.0.0.0",
               "DARWIN_HEALTH_PORT": "9000"}
    config = load_config(path, environ=environ)
    assert config["discord"]["token"] == "from-env"
    assert config["storage"] == {"database": "/data/env.sqlite3",
                                 "database_url": "postgresql://u:p@db:5432/darwin"}
    assert (config["discord"]["shard_count"], config["discord"]["shard_ids"]) == (4, [1, 3])
    assert config["logging"]["level"] == "WARNING"
    assert config["health"] == {"enabled": True, "host": "0.0.0.0", "port": 9000}
    # set but blank: the file's value stays
    config = load_config(path, environ={"DISCORD_TOKEN": "", "DARWIN_SHARD_COUNT": " "})
    assert config["discord"]["token"] == "from-file"


@pytest.mark.parametrize("variable,value,allowed", [
    ("DARWIN_SHARD_COUNT", "two", "a whole number"),
    ("DARWIN_SHARD_IDS", "0;1", "a list of whole numbers"),
    ("DARWIN_LOG_LEVEL", "LOUD", '"DEBUG", "INFO", "WARNING" or "ERROR"'),
    ("DARWIN_HEALTH_PORT", "http", "a port number from 1 to 65535"),
    ("DARWIN_HEALTH_ENABLED", "maybe", "true or false"),
    ("DATABASE_URL", "sqlite:x", "postgresql://"),
])
def test_a_bad_environment_variable_is_one_sentence(tmp_path, variable, value, allowed):
    sentence = one_sentence(run_bot(tmp_path, env={variable: value}))
    section, key = ENVIRONMENT[variable]
    assert sentence.startswith(f"The environment variable {variable}")
    assert f"([{section}] {key}) is not allowed: it must be " in sentence and allowed in sentence


def test_shards_are_checked_with_the_rest(tmp_path):
    with pytest.raises(ConfigError, match=r"shard_ids \[2\] are not shards of shard_count 2"):
        load_config(None, environ={"DARWIN_SHARD_COUNT": "2", "DARWIN_SHARD_IDS": "0,2"})


# --- the example file -------------------------------------------------------------------------

def test_the_example_file_holds_every_key_with_its_default():
    with open(ROOT / "config.example.toml", "rb") as f:
        assert tomllib.load(f) == defaults()
    text = (ROOT / "config.example.toml").read_text()
    for variable in ENVIRONMENT:
        assert variable in text  # every environment variable is documented there


def test_the_health_endpoint_is_configured_off_by_default():
    """PART B's HTTP endpoint reads [health] enabled / host / port."""
    assert defaults()["health"] == {"enabled": False, "host": "127.0.0.1", "port": 8080}


def test_replay_and_ratings_report_a_bad_configuration(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text('[games]\nai_level = "hard"\n')
    assert bot.main(["--config", str(path), "ratings", "--rebuild"]) == 2
    assert 'ai_level = "hard" is not allowed' in capsys.readouterr().err
