"""The health check's client: ``python -m ops.probe`` asks the running bot's ``/healthz``.

Exit status 0 when it answers 200, 1 otherwise (503, no answer within 4 s, or the endpoint
not enabled); it prints the answer (Docker keeps it: ``docker inspect --format
'{{json .State.Health}}' CONTAINER``). The address is the configuration's ``[health]`` (with
DARWIN_HEALTH_ENABLED / _HOST / _PORT), read as the bot reads it; a bot listening on every
interface (0.0.0.0) is asked on 127.0.0.1. Used by the Dockerfile's HEALTHCHECK and
docker-compose.yml's health checks.
"""

from __future__ import annotations

import argparse
import os
import sys
import tomllib
import urllib.error
import urllib.request
from pathlib import Path

TIMEOUT = 4.0
DEFAULT_CONFIG = Path("config.toml")


def address(config_path: Path | None) -> tuple[bool, str, int]:
    """(enabled, host, port) as the bot reads them: ``[health]`` of the configuration file,
    then DARWIN_HEALTH_ENABLED / _HOST / _PORT. Read here without the bot's modules (the
    probe runs every 30 s: it costs a few milliseconds, not the bot's imports); the bot
    itself has checked these values at start."""
    section: dict = {}
    path = config_path or (DEFAULT_CONFIG if DEFAULT_CONFIG.exists() else None)
    if path is not None:
        try:
            with open(path, "rb") as f:
                section = tomllib.load(f).get("health") or {}
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise SystemExit(f"unhealthy: {path} cannot be read ({exc})") from None
    enabled = section.get("enabled", False) is True
    host = str(section.get("host") or "127.0.0.1")
    port = section.get("port", 8080)
    if os.environ.get("DARWIN_HEALTH_ENABLED", "").strip():
        enabled = os.environ["DARWIN_HEALTH_ENABLED"].strip().lower() in ("1", "true", "yes",
                                                                          "on")
    host = os.environ.get("DARWIN_HEALTH_HOST", "").strip() or host
    port = os.environ.get("DARWIN_HEALTH_PORT", "").strip() or port
    host = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
    return enabled, host, int(port)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ops.probe",
                                     description="Ask the running bot's /healthz (exit 0: ok).")
    parser.add_argument("--config", type=Path, help="configuration file (default: config.toml)")
    parser.add_argument("--url", help="ask this URL instead (e.g. http://127.0.0.1:8080/healthz)")
    args = parser.parse_args(argv)
    url = args.url
    if url is None:
        enabled, host, port = address(args.config)
        if not enabled:
            print("unhealthy: the health endpoint is off ([health] enabled = false; the Docker "
                  "image sets DARWIN_HEALTH_ENABLED=1)")
            return 1
        url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as response:  # noqa: S310
            print(response.read().decode(errors="replace").strip())
            return 0 if response.status == 200 else 1
    except urllib.error.HTTPError as exc:
        print(exc.read().decode(errors="replace").strip() or f"HTTP {exc.code}")
        return 1
    except (urllib.error.URLError, OSError) as exc:
        print(f"unhealthy: no answer from {url} ({getattr(exc, 'reason', exc)})")
        return 1


if __name__ == "__main__":
    sys.exit(main())
