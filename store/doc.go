// Package store keeps what threefold decides, in SQLite or PostgreSQL.
//
// It holds the games threefold follows or plays, every alert (once, by its
// stable id), the bot's game records, the state a source needs to resume
// after a restart, and which sink has accepted which alert. It runs on an
// embedded SQLite file by default (a pure-Go driver, so the binary stays
// static) or on PostgreSQL when the DSN says so, with one schema whose
// migrations are embedded and applied at Open. Its methods are small and
// independent so that a consumer declares the two or three it uses as its
// own interface.
//
// # Delivery
//
// PutAlert returns only after the alert is committed (SQLite with
// synchronous=FULL, PostgreSQL with its default synchronous commit), so a
// caller that sends an alert only after PutAlert returned, and calls
// MarkDelivered only after a sink accepted it, never reports an alert as
// sent that a crash could lose. After a restart, Undelivered lists for each
// sink the alerts stored but not marked; they are sent again (at least
// once: a crash between a sink's acceptance and MarkDelivered repeats that
// one). Package delivery builds on this.
//
// # Several instances
//
// Every process that opens the same database and calls Join is an instance
// of one group (group.go; the scheduler is package group): a row with its
// id, host, start time, last heartbeat, lease lifetime (LeaseTTL, default
// 30 s) and per-kind budgets. Work is split by leases: one row per source
// (LeaseSource) and per followed game (LeaseGame), held by at most one
// instance until its expires_at. Acquire takes a named lease with one
// conditional upsert (free, expired, or already ours) and says whose it was
// when it takes one over; AcquireFree takes leases from the pool Offer
// fills, with FOR UPDATE SKIP LOCKED on PostgreSQL; both count the
// instance's unexpired leases of the kind against its budget under a lock on
// its instance row, so it never holds more than its budget (the Lichess
// streams one address may open).
//
// Heartbeat, every LeaseTTL/3, moves last_seen and renews every unexpired
// lease the instance holds; a lease whose expiry passed is lost even if
// nobody took it yet, and Heartbeat returns it so the caller stops. An
// instance forgotten as dead (ForgetInstances) registers again at its next
// heartbeat. Each change of holder increments the lease's epoch, and
// Instance.SaveProgress and Instance.SaveSourceState write only for the
// holder at its epoch (fencing), so a paused instance that wakes up cannot
// overwrite its successor's state.
//
// Failover: an instance that dies stops renewing; within LeaseTTL of its
// last heartbeat its leases expire, another instance's Acquire or
// AcquireFree takes them (a new epoch), and it resumes from LoadProgress and
// LoadSourceState; alerts are replayed with their stable ids and stored
// once. Expiry is judged by the clock of the instance that reads or writes
// it (Config.Now, InstanceConfig.Now), so LeaseTTL must exceed the heartbeat
// period plus the clock skew between hosts plus a database round trip. On
// SQLite the same code runs (its write lock serialises the instances of one
// machine); a lone instance holds everything.
//
// # The outbox
//
// Alerts of a group leave through the outbox (outbox.go): PutAlertOutbox
// stores an alert and, in the same transaction and only if it is new, one
// row per sink; ClaimOutbox hands due rows to one claimer for a hold time
// (SKIP LOCKED on PostgreSQL); MarkSent follows the sink's acceptance; a
// refused row is given back with a retry time (FailOutbox), and a row whose
// claimer died is claimed again when its hold runs out. So each alert
// reaches each sink once, in this precise sense: never zero times once
// PutAlertOutbox returned (unless the row is pruned or the sink refuses
// forever), and more than once only if a claimer sent it and then failed to
// record MarkSent (a crash, a lost connection, the database down between
// send and mark) or its send outlasted its hold (package delivery cancels a
// send at half the hold). The alert's id, stable across instances and
// restarts, is the idempotency key a receiver can use to drop such a
// repeat.
package store
