-- 0002 (PostgreSQL): when a live game next needs the bot by itself (see the SQLite 0002).

ALTER TABLE games ADD COLUMN wake_at DOUBLE PRECISION;

CREATE INDEX games_wake ON games (wake_at) WHERE wake_at IS NOT NULL;
