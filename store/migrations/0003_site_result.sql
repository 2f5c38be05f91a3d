-- 0003: how the site itself says a game ended (chess.com's "Game drawn by
-- repetition"), kept beside termination, threefold's own finding.
ALTER TABLE games ADD COLUMN site_result TEXT NOT NULL DEFAULT '';
