-- 0003: each server's settings (/darwin settings set). A NULL column keeps the bot's default
-- (config.toml; for the language, the server's own Discord language first). The host keeps
-- the rows it has read in memory and applies them to the games created afterwards.

CREATE TABLE guild_settings (
    guild_id      TEXT PRIMARY KEY,
    language      TEXT,      -- catalogue language of new tables ('en', 'it', 'fr')
    turn_timer    REAL CHECK (turn_timer IS NULL OR turn_timer >= 0),   -- seconds, 0 = off
    ai_delay      REAL CHECK (ai_delay IS NULL OR ai_delay >= 0),       -- seconds
    ai_level      TEXT,      -- 'fast', 'strong' or 'random'
    thread        INTEGER CHECK (thread IS NULL OR thread IN (0, 1)),   -- new tables in a thread
    manager_role  TEXT,      -- a role id: its members may start, cancel, remove in any game
    updated_at    REAL NOT NULL
) STRICT, WITHOUT ROWID;
