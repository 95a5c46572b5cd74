-- 0003 (PostgreSQL): each server's settings (see the SQLite 0003).

CREATE TABLE guild_settings (
    guild_id      TEXT COLLATE "C" PRIMARY KEY,
    language      TEXT,
    turn_timer    DOUBLE PRECISION CHECK (turn_timer IS NULL OR turn_timer >= 0),
    ai_delay      DOUBLE PRECISION CHECK (ai_delay IS NULL OR ai_delay >= 0),
    ai_level      TEXT,
    thread        INTEGER CHECK (thread IS NULL OR thread IN (0, 1)),
    manager_role  TEXT,
    updated_at    DOUBLE PRECISION NOT NULL
);
