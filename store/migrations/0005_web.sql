-- 0005: the read-only web page (web/): its unguessable links, and the server page's setting.
--
-- A link is a random token (secrets.token_urlsafe) for one game ('game': game_id) or for one
-- server's page ('guild': guild_id). At most one live (not revoked) link per game and per
-- server; /darwin web revoke sets revoked_at, and the next /darwin web makes a new token.
CREATE TABLE web_links (
    token       TEXT PRIMARY KEY,
    scope       TEXT NOT NULL CHECK (scope IN ('game', 'guild')),
    game_id     INTEGER REFERENCES games (id),
    guild_id    TEXT,
    created_at  REAL NOT NULL,
    revoked_at  REAL,          -- NULL while the link works
    CHECK ((scope = 'game') = (game_id IS NOT NULL)),
    CHECK (scope = 'game' OR guild_id IS NOT NULL)
) STRICT, WITHOUT ROWID;

CREATE UNIQUE INDEX web_links_game ON web_links (game_id)
    WHERE revoked_at IS NULL AND scope = 'game';
CREATE UNIQUE INDEX web_links_guild ON web_links (guild_id)
    WHERE revoked_at IS NULL AND scope = 'guild';

-- The server page (/s/TOKEN) is shown only when the server turned it on (NULL: off).
ALTER TABLE guild_settings ADD COLUMN web_page INTEGER CHECK (web_page IS NULL OR web_page IN (0, 1));

-- The server page: a server's latest finished games.
CREATE INDEX games_guild ON games (guild_id, id);
