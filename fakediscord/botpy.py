"""``python bot.py`` itself, unmodified, against the fake Discord: the real entry point (its
configuration checks, its signal handling, its exit status), pointed at the fake by a
``sitecustomize`` module that Python imports at start-up. It reads DARWIN_FAKE_API and
DARWIN_FAKE_GATEWAY and sets discord.py's REST base and gateway, as ``fakediscord.launcher``
does for ``cogs.bot.DarwinBot``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SITECUSTOMIZE = '''\
import os

if os.environ.get("DARWIN_FAKE_API") and os.environ.get("DARWIN_FAKE_GATEWAY"):
    from fakediscord.launcher import point_at

    point_at(os.environ["DARWIN_FAKE_API"], os.environ["DARWIN_FAKE_GATEWAY"])
'''


def write_config(path: Path, database: Path, *, health_port: int | None = None,
                 ai_delay: float = 0.0, level: str = "INFO") -> Path:
    """A config.toml for the fake: one shard, the SQLite file, AI seats without delay."""
    health = (f'[health]\nenabled = true\nhost = "127.0.0.1"\nport = {health_port}\n'
              if health_port else "")
    path.write_text(
        f'[discord]\nshard_count = 1\n\n[storage]\ndatabase = "{database}"\n\n'
        f'[games]\nai_delay = {ai_delay}\nturn_timer = 0\n\n[logging]\nlevel = "{level}"\n\n'
        + health)
    return path


def start_bot_py(fake, config: Path, workdir: Path, log_name: str = "bot.log",
                 ) -> subprocess.Popen:
    """``python bot.py --config CONFIG`` with the token "fake", talking to ``fake``; its
    output goes to ``workdir/log_name``."""
    shim = workdir / "shim"
    shim.mkdir(parents=True, exist_ok=True)
    (shim / "sitecustomize.py").write_text(SITECUSTOMIZE)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(shim), str(ROOT)]),
               DISCORD_TOKEN="fake", DARWIN_FAKE_API=fake.api_base,
               DARWIN_FAKE_GATEWAY=fake.gateway_url)
    for variable in ("DATABASE_URL", "DARWIN_DATABASE", "DARWIN_SHARD_COUNT",
                     "DARWIN_SHARD_IDS", "DARWIN_HEALTH_ENABLED", "DARWIN_HEALTH_HOST",
                     "DARWIN_HEALTH_PORT", "DARWIN_LOG_LEVEL"):
        env.pop(variable, None)
    log = open(workdir / log_name, "w")  # noqa: SIM115 - closed with the process
    return subprocess.Popen([sys.executable, str(ROOT / "bot.py"), "--config", str(config)],
                            cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT)
