#!/bin/sh
# start-postgres.sh installs PostgreSQL from Debian packages if needed,
# starts the newest cluster, creates the role and database the store tests
# use, and prints the DSN to put in THREEFOLD_TEST_POSTGRES_DSN. It is
# idempotent and meant for root on a fresh Debian 12 machine (.ci/run):
#
#   export THREEFOLD_TEST_POSTGRES_DSN="$(sh store/testdata/start-postgres.sh)"
#
# Everything but the DSN goes to stderr. Each test makes its own schema in
# this database and drops it when done, so parallel test runs do not collide.
set -eu

ROLE=threefold
PASSWORD=threefold
DB=threefold_test

log() { echo "start-postgres: $*" >&2; }

if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
	log "installing postgresql"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2
	apt-get install -y -qq postgresql >&2
fi

VER=$(ls /usr/lib/postgresql | sort -n | tail -n 1)
if ! pg_lsclusters -h | awk '{print $1 " " $2}' | grep -qx "$VER main"; then
	log "creating cluster $VER main"
	pg_createcluster "$VER" main >&2
fi
if ! pg_ctlcluster "$VER" main status >/dev/null 2>&1; then
	log "starting cluster $VER main"
	pg_ctlcluster "$VER" main start >&2
fi
PORT=$(pg_lsclusters -h | awk -v v="$VER" '$1 == v && $2 == "main" {print $3}')

i=0
until pg_isready -q -h 127.0.0.1 -p "$PORT"; do
	i=$((i + 1))
	if [ "$i" -gt 60 ]; then
		log "postgresql $VER did not accept connections on port $PORT"
		exit 1
	fi
	sleep 1
done

psql_admin() { runuser -u postgres -- psql -X -q -v ON_ERROR_STOP=1 -p "$PORT" "$@"; }

if [ "$(psql_admin -tAc "SELECT 1 FROM pg_roles WHERE rolname = '$ROLE'")" != 1 ]; then
	log "creating role $ROLE"
	psql_admin -c "CREATE ROLE $ROLE LOGIN PASSWORD '$PASSWORD'" >&2
fi
if [ "$(psql_admin -tAc "SELECT 1 FROM pg_database WHERE datname = '$DB'")" != 1 ]; then
	log "creating database $DB"
	psql_admin -c "CREATE DATABASE $DB OWNER $ROLE" >&2
fi

echo "postgres://$ROLE:$PASSWORD@127.0.0.1:$PORT/$DB?sslmode=disable"
