-- 0005 (PostgreSQL): the web page's links and the server page's setting (see the SQLite 0005).
CREATE TABLE web_links (
    token       TEXT COLLATE "C" PRIMARY KEY,
    scope       TEXT COLLATE "C" NOT NULL CHECK (scope IN ('game', 'guild')),
    game_id     BIGINT REFERENCES games (id),
    guild_id    TEXT COLLATE "C",
    created_at  DOUBLE PRECISION NOT NULL,
    revoked_at  DOUBLE PRECISION,
    CHECK ((scope = 'game') = (game_id IS NOT NULL)),
    CHECK (scope = 'game' OR guild_id IS NOT NULL)
);

CREATE UNIQUE INDEX web_links_game ON web_links (game_id)
    WHERE revoked_at IS NULL AND scope = 'game';
CREATE UNIQUE INDEX web_links_guild ON web_links (guild_id)
    WHERE revoked_at IS NULL AND scope = 'guild';

ALTER TABLE guild_settings ADD COLUMN web_page INTEGER CHECK (web_page IS NULL OR web_page IN (0, 1));

CREATE INDEX games_guild ON games (guild_id, id);
