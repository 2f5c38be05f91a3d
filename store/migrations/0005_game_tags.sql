-- 0005: the tag pairs of a game read from PGN (a file, a broadcast), as a
-- JSON list of {name, value} in their order, so that an export keeps them.

ALTER TABLE games ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';
