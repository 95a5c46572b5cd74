-- 0001: games, their action logs and final results.
--
-- JSON columns (games.options, games.lobby, games.state, actions.action) hold one JSON object
-- each, written and parsed by the store; the store never looks inside them.
-- STRICT tables (SQLite >= 3.37) refuse values of the wrong type instead of storing them.

CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    guild_id    TEXT,
    channel_id  TEXT NOT NULL,
    kind        TEXT NOT NULL,
    status      TEXT NOT NULL
                CHECK (status IN ('lobby', 'active', 'finished', 'cancelled', 'broken')),
    options     TEXT,               -- JSON object
    lobby       TEXT,               -- JSON object: seats, creator, message ids (opaque here)
    state       TEXT,               -- JSON object; NULL while in lobby
    seq         INTEGER NOT NULL DEFAULT 0 CHECK (seq >= 0),   -- actions applied
    error       TEXT,               -- why the game was set aside (status 'broken')
    created_at  REAL NOT NULL,
    updated_at  REAL NOT NULL
) STRICT;

-- One live game per channel. The WHERE clause must stay word for word the one the store's
-- queries use, or SQLite will not use this index for them.
CREATE UNIQUE INDEX games_live_channel ON games (channel_id)
    WHERE status IN ('lobby', 'active');

-- live_games() at start-up: only the live rows are read, however many games are finished.
CREATE INDEX games_status ON games (status);

CREATE TABLE actions (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    seq         INTEGER NOT NULL CHECK (seq >= 1),   -- the game's seq after this action
    actor       TEXT,
    action      TEXT NOT NULL,      -- JSON object
    at          REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
) STRICT, WITHOUT ROWID;

CREATE TABLE results (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    user_id     TEXT,               -- the seat's player id (a Discord user id, 'ai:1'...)
    seat        INTEGER NOT NULL,   -- seat index in the game
    name        TEXT,
    rank        INTEGER NOT NULL,   -- 1 = winner; ties share a rank
    score       INTEGER,
    kind        TEXT NOT NULL,      -- the game's kind, copied for per-game leaderboards
    finished_at REAL NOT NULL,
    PRIMARY KEY (game_id, seat)
) STRICT, WITHOUT ROWID;

CREATE INDEX results_user ON results (user_id, finished_at);
