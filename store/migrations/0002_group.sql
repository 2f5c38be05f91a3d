-- 0002: several instances on one database (a group). An instance row is
-- written at Join and its last_seen moved on every heartbeat; a lease row
-- says which instance holds a source or a followed game until expires_at;
-- an outbox row is one alert still to be given to one sink. Times are
-- BIGINT nanoseconds since the Unix epoch, UTC, from each instance's clock.

CREATE TABLE instances (
	id         TEXT   PRIMARY KEY,
	host       TEXT   NOT NULL,
	pid        BIGINT NOT NULL DEFAULT 0,
	started_at BIGINT NOT NULL,
	last_seen  BIGINT NOT NULL,
	lease_ttl  BIGINT NOT NULL, -- nanoseconds: dead when last_seen is older
	budgets    TEXT   NOT NULL DEFAULT '{}' -- JSON: lease kind -> most held at once
);

-- holder '' is a lease nobody holds (offered, released). epoch grows by one
-- each time the lease passes to another holder: a fencing token.
CREATE TABLE leases (
	kind        TEXT   NOT NULL,
	name        TEXT   NOT NULL,
	holder      TEXT   NOT NULL DEFAULT '',
	epoch       BIGINT NOT NULL DEFAULT 0,
	acquired_at BIGINT NOT NULL DEFAULT 0,
	renewed_at  BIGINT NOT NULL DEFAULT 0,
	expires_at  BIGINT NOT NULL DEFAULT 0,
	PRIMARY KEY (kind, name)
);
CREATE INDEX leases_holder ON leases (holder, kind);
CREATE INDEX leases_free ON leases (kind, expires_at);

-- One row per (alert, sink), written in the alert's transaction. sent_at 0
-- is pending; a pending row is claimable when claimed_until has passed.
CREATE TABLE outbox (
	alert_id      TEXT    NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
	sink          TEXT    NOT NULL,
	seq           BIGINT  NOT NULL, -- the alert's seq: oldest first
	created_at    BIGINT  NOT NULL,
	claimed_by    TEXT    NOT NULL DEFAULT '',
	claimed_until BIGINT  NOT NULL DEFAULT 0,
	attempts      INTEGER NOT NULL DEFAULT 0,
	last_error    TEXT    NOT NULL DEFAULT '',
	sent_at       BIGINT  NOT NULL DEFAULT 0,
	PRIMARY KEY (alert_id, sink)
);
CREATE INDEX outbox_pending ON outbox (sent_at, claimed_until, seq);
