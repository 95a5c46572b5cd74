-- 0004 (PostgreSQL): ratings, their history, rematches and a channel's games (see the SQLite
-- 0004). No PostgreSQL store existed before this version, so there are no old results whose
-- ai_level would need filling from the lobby JSON.

ALTER TABLE results ADD COLUMN ai_level TEXT COLLATE "C";

ALTER TABLE games ADD COLUMN rematch_of BIGINT REFERENCES games (id);

CREATE UNIQUE INDEX games_rematch ON games (rematch_of) WHERE rematch_of IS NOT NULL;

CREATE INDEX games_channel ON games (channel_id, id);

CREATE TABLE ratings (
    guild_id    TEXT COLLATE "C" NOT NULL,
    kind        TEXT COLLATE "C" NOT NULL,
    player_id   TEXT COLLATE "C" NOT NULL,
    mu          DOUBLE PRECISION NOT NULL,
    sigma       DOUBLE PRECISION NOT NULL CHECK (sigma > 0),
    games       INTEGER NOT NULL CHECK (games >= 0),
    updated_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, kind, player_id)
);

CREATE TABLE rating_changes (
    game_id       BIGINT NOT NULL REFERENCES games (id),
    player_id     TEXT COLLATE "C" NOT NULL,
    guild_id      TEXT COLLATE "C" NOT NULL,
    kind          TEXT COLLATE "C" NOT NULL,
    rank          INTEGER NOT NULL,
    mu_before     DOUBLE PRECISION NOT NULL,
    sigma_before  DOUBLE PRECISION NOT NULL,
    mu_after      DOUBLE PRECISION NOT NULL,
    sigma_after   DOUBLE PRECISION NOT NULL,
    at            DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, player_id)
);

CREATE INDEX rating_changes_player ON rating_changes (guild_id, kind, player_id, at);
