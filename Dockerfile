# Darwin bot image: python bot.py with the database on a volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1

WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt

COPY . .
RUN useradd --create-home --uid 10001 darwin \
    && mkdir -p /data \
    && chown darwin:darwin /data
USER darwin

# The SQLite database lives on this volume (see [storage] database in config.toml). Several
# processes share one PostgreSQL database instead: set DATABASE_URL, and DARWIN_SHARD_COUNT /
# DARWIN_SHARD_IDS for the shards each one runs (docker-compose.yml does both).
VOLUME ["/data"]
ENV DARWIN_DATABASE=/data/darwin.sqlite3

CMD ["python", "bot.py"]
