-- 0004: the connection state of each source, as the instance following it
-- last saw it: connected or not, since when, the reason and how many
-- attempts in a row failed. threefold status shows it. Times are BIGINT
-- nanoseconds since the Unix epoch, UTC.

CREATE TABLE source_health (
	source     TEXT    PRIMARY KEY,
	connected  INTEGER NOT NULL,
	since      BIGINT  NOT NULL, -- connected, or down, since then
	failures   INTEGER NOT NULL DEFAULT 0, -- attempts in a row that failed
	last_error TEXT    NOT NULL DEFAULT '',
	updated_at BIGINT  NOT NULL
);
