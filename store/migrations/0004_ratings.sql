-- 0004: ratings per (server, game, player), their history, rematches and a channel's games.
--
-- Ratings are openskill's Plackett-Luce (mu, sigma), updated in the transaction that finishes
-- a game (Store.record_action with results) and recomputable from the results alone, in the
-- order the games finished (Store.rebuild_ratings, `python bot.py ratings --rebuild`).

-- The AI level that played a seat to the end: an AI seat's, or the AI's that took over the
-- seat of a player who left; NULL when the seat's player finished the game themselves. AI
-- seats are rated as one player per game and level ('ai:strong'). Filled from each finished
-- game's lobby JSON for the results written before this migration.
ALTER TABLE results ADD COLUMN ai_level TEXT;

UPDATE results SET ai_level = (
    SELECT CASE WHEN json_valid(g.lobby) THEN
               CASE WHEN json_extract(g.lobby, '$.seats[' || results.seat || '].ai') THEN
                   COALESCE(json_extract(g.lobby, '$.seats[' || results.seat || '].level'),
                            json_extract(g.lobby, '$.ai_level'), 'fast')
               END
           END
    FROM games g WHERE g.id = results.game_id);

-- A lobby opened by a finished game's Rematch button names that game: once only.
ALTER TABLE games ADD COLUMN rematch_of INTEGER REFERENCES games (id);

CREATE UNIQUE INDEX games_rematch ON games (rematch_of) WHERE rematch_of IS NOT NULL;

-- /darwin history and the Rematch button: a channel's latest games.
CREATE INDEX games_channel ON games (channel_id, id);

-- The current rating of each player of a server in one game ('ai:<level>' for AI seats).
CREATE TABLE ratings (
    guild_id    TEXT NOT NULL,
    kind        TEXT NOT NULL,
    player_id   TEXT NOT NULL,
    mu          REAL NOT NULL,
    sigma       REAL NOT NULL CHECK (sigma > 0),
    games       INTEGER NOT NULL CHECK (games >= 0),   -- rated games
    updated_at  REAL NOT NULL,
    PRIMARY KEY (guild_id, kind, player_id)
) STRICT, WITHOUT ROWID;

-- What each rated game changed, one row per rated player (the change over the last games).
CREATE TABLE rating_changes (
    game_id       INTEGER NOT NULL REFERENCES games (id),
    player_id     TEXT NOT NULL,
    guild_id      TEXT NOT NULL,
    kind          TEXT NOT NULL,
    rank          INTEGER NOT NULL,   -- as rated (a player who left counts last)
    mu_before     REAL NOT NULL,
    sigma_before  REAL NOT NULL,
    mu_after      REAL NOT NULL,
    sigma_after   REAL NOT NULL,
    at            REAL NOT NULL,
    PRIMARY KEY (game_id, player_id)
) STRICT, WITHOUT ROWID;

CREATE INDEX rating_changes_player ON rating_changes (guild_id, kind, player_id, at);
