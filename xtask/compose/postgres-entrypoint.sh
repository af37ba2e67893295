#!/bin/sh
# The postgres image's entrypoint, as far as the compose stack uses it: a cluster made on first
# start with POSTGRES_USER (a superuser with POSTGRES_PASSWORD) owning POSTGRES_DB, password
# logins from the network, and the server in the foreground.
set -eu
: "${POSTGRES_PASSWORD:?the postgres image refuses to start without POSTGRES_PASSWORD}"
user="${POSTGRES_USER:-postgres}"
db="${POSTGRES_DB:-$user}"
bin=/usr/lib/postgresql/15/bin
data=/var/lib/postgresql/data
if [ ! -s "$data/PG_VERSION" ]; then
  mkdir -p "$data" && chown postgres:postgres "$data"
  printf '%s\n' "$POSTGRES_PASSWORD" > /tmp/pwfile && chown postgres /tmp/pwfile
  su postgres -c "$bin/initdb -D $data -U '$user' --pwfile=/tmp/pwfile --auth-local=trust --auth-host=scram-sha-256" >/dev/null
  rm /tmp/pwfile
  echo "host all all all scram-sha-256" >> "$data/pg_hba.conf"
  su postgres -c "$bin/pg_ctl -D $data -o '-c listen_addresses=' -w start" >/dev/null
  [ "$db" = postgres ] || su postgres -c "$bin/psql -U '$user' -d postgres -c 'CREATE DATABASE \"$db\"'" >/dev/null
  su postgres -c "$bin/pg_ctl -D $data -m fast -w stop" >/dev/null
fi
mkdir -p /var/run/postgresql && chown postgres:postgres /var/run/postgresql
# The server as the container's first process, so that `podman stop` reaches it.
exec setpriv --reuid=postgres --regid=postgres --init-groups "$bin/postgres" -D "$data" -c listen_addresses='*'
