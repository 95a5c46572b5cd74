-- 0002: when a live game next needs the bot without anyone pressing anything (an AI seat's
-- move, an auto-pass, a turn timer), in epoch seconds; NULL when it waits for people only.
-- At start the host loads only the games due soon; the others load when their channel is
-- next used, so start-up time and memory do not grow with the number of live games.

ALTER TABLE games ADD COLUMN wake_at REAL;

CREATE INDEX games_wake ON games (wake_at) WHERE wake_at IS NOT NULL;
