# Darwin bot image: python bot.py with the database on a volume.
#
# The dependencies come from the lock file requirements.txt (exact versions and the hashes of
# their files, made from pyproject.toml by scripts/lock.sh): the build stage installs them
# into a virtual environment, and the image copies that environment and the bot's code only
# (.dockerignore leaves out the tests, benchmarks, fake Discord, docs and any local venv).

FROM python:3.11-slim AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1
RUN python -m venv /venv
COPY requirements.txt /tmp/requirements.txt
RUN /venv/bin/pip install --require-hashes --no-deps -r /tmp/requirements.txt


FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PATH=/venv/bin:$PATH

COPY --from=build /venv /venv
WORKDIR /app
COPY . .
RUN useradd --create-home --uid 10001 darwin \
    && mkdir -p /data \
    && chown darwin:darwin /data
USER darwin

# The SQLite database lives on this volume: DARWIN_DATABASE (which wins over [storage]
# database in config.toml) points there. Several processes share one PostgreSQL database
# instead: set DATABASE_URL, and DARWIN_SHARD_COUNT / DARWIN_SHARD_IDS for the shards each
# one runs (docker-compose.yml does both).
VOLUME ["/data"]
ENV DARWIN_DATABASE=/data/darwin.sqlite3

# Health: /healthz and /metrics on 127.0.0.1:8080 inside the container (DARWIN_HEALTH_HOST=0.0.0.0
# and a published port for a Prometheus server outside); the probe exits 0 only on a 200.
# Stop: SIGTERM ends the bot gracefully within 8 s (docker stop waits 10 s before SIGKILL).
ENV DARWIN_HEALTH_ENABLED=1
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-m", "ops.probe"]
STOPSIGNAL SIGTERM

# Exec form: python is the container's process 1 and receives docker stop's SIGTERM itself.
CMD ["python", "bot.py"]
