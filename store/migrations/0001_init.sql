-- 0001: the first schema. One text for SQLite and PostgreSQL: {{SEQ}} is an
-- auto-incremented primary key and {{BLOB}} a byte string in each dialect.
-- Times are BIGINT nanoseconds since the Unix epoch, UTC; booleans are
-- INTEGER 0/1; lists are JSON text. The *_key columns are the names in
-- lower case (Go's Unicode folding, the same for both databases), for
-- case-insensitive filters.

CREATE TABLE games (
	site        TEXT    NOT NULL,
	game_id     TEXT    NOT NULL,
	source      TEXT    NOT NULL DEFAULT '',
	url         TEXT    NOT NULL DEFAULT '',
	white       TEXT    NOT NULL DEFAULT '',
	black       TEXT    NOT NULL DEFAULT '',
	event       TEXT    NOT NULL DEFAULT '',
	start_fen   TEXT    NOT NULL DEFAULT '',
	notation    TEXT    NOT NULL DEFAULT 'san',
	moves       TEXT    NOT NULL DEFAULT '[]',
	plies       INTEGER NOT NULL DEFAULT 0,
	result      TEXT    NOT NULL DEFAULT '',
	termination TEXT    NOT NULL DEFAULT '',
	finished    INTEGER NOT NULL DEFAULT 0,
	audience    TEXT    NOT NULL DEFAULT '',
	white_key   TEXT    NOT NULL DEFAULT '',
	black_key   TEXT    NOT NULL DEFAULT '',
	source_key  TEXT    NOT NULL DEFAULT '',
	event_key   TEXT    NOT NULL DEFAULT '',
	started_at  BIGINT  NOT NULL DEFAULT 0,
	updated_at  BIGINT  NOT NULL,
	PRIMARY KEY (site, game_id)
);
CREATE INDEX games_updated ON games (updated_at);
CREATE INDEX games_url ON games (url);

CREATE TABLE alerts (
	seq         {{SEQ}},
	id          TEXT    NOT NULL UNIQUE,
	kind        TEXT    NOT NULL,
	source      TEXT    NOT NULL,
	site        TEXT    NOT NULL,
	game_id     TEXT    NOT NULL,
	white       TEXT    NOT NULL,
	black       TEXT    NOT NULL,
	white_key   TEXT    NOT NULL,
	black_key   TEXT    NOT NULL,
	source_key  TEXT    NOT NULL,
	ply         INTEGER NOT NULL,
	observed_at BIGINT  NOT NULL,
	stored_at   BIGINT  NOT NULL,
	body        TEXT    NOT NULL -- the alert's JSON (the README contract)
);
CREATE INDEX alerts_observed ON alerts (observed_at);
CREATE INDEX alerts_game ON alerts (site, game_id, ply);

-- A sink starts with the alerts stored after it was first seen (from_seq),
-- so a webhook added later is not sent the whole history.
CREATE TABLE sinks (
	name       TEXT   PRIMARY KEY,
	from_seq   BIGINT NOT NULL,
	created_at BIGINT NOT NULL
);

CREATE TABLE deliveries (
	alert_id     TEXT   NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
	sink         TEXT   NOT NULL,
	delivered_at BIGINT NOT NULL,
	PRIMARY KEY (alert_id, sink)
);

CREATE TABLE bot_records (
	site        TEXT    NOT NULL,
	game_id     TEXT    NOT NULL,
	white       TEXT    NOT NULL,
	black       TEXT    NOT NULL,
	white_key   TEXT    NOT NULL,
	black_key   TEXT    NOT NULL,
	result      TEXT    NOT NULL,
	termination TEXT    NOT NULL,
	ended_at    BIGINT  NOT NULL,
	body        TEXT    NOT NULL, -- the record's JSON (bot.Record)
	PRIMARY KEY (site, game_id)
);
CREATE INDEX bot_records_ended ON bot_records (ended_at);

CREATE TABLE source_state (
	source     TEXT   PRIMARY KEY,
	state      {{BLOB}} NOT NULL,
	updated_at BIGINT NOT NULL
);

CREATE TABLE game_progress (
	site       TEXT    NOT NULL,
	game_id    TEXT    NOT NULL,
	ply        INTEGER NOT NULL,
	updated_at BIGINT  NOT NULL,
	PRIMARY KEY (site, game_id)
);
