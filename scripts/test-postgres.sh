#!/usr/bin/env bash
# Runs the database-backed tests against a throwaway PostgreSQL 15 server (Debian's, which has
# no pgvector: this exercises the exact-search fallback). Installs postgresql-15 with apt when
# missing, initdb's a temp dir, starts on a free loopback port, and removes everything on exit.
# Usage: bash scripts/test-postgres.sh [vitest args]   (default: lib/db, lib/jobs and the key lockout, then tests/contract/postgres.test.ts
# against the production build when there is one)
set -euo pipefail
cd "$(dirname "$0")/.."

as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
if [ ! -x /usr/lib/postgresql/15/bin/postgres ]; then
  "${as_root[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends postgresql-15
fi
bin=/usr/lib/postgresql/15/bin

# PostgreSQL refuses to run as root: run it as the 'postgres' user the package creates.
run_pg=()
if [ "$(id -u)" -eq 0 ]; then run_pg=(runuser -u postgres --); fi

dir=$(mktemp -d /tmp/vigil-pg.XXXXXX)
chmod 755 "$dir"
[ "$(id -u)" -eq 0 ] && chown postgres:postgres "$dir"
port=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")

cleanup() {
  "${run_pg[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT

"${run_pg[@]}" "$bin/initdb" -D "$dir/data" -U vigil --auth=trust -E UTF8 >/dev/null
"${run_pg[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50 -c wal_recycle=off" start >/dev/null
"${run_pg[@]}" "$bin/createdb" -h 127.0.0.1 -p "$port" -U vigil vigil_test

echo "test-postgres: PostgreSQL 15 on 127.0.0.1:$port"
export TEST_DATABASE_URL="postgres://vigil@127.0.0.1:$port/vigil_test"
# lib/db/erasure-on-disk.integration.test.ts searches the server's files for an erased person.
export TEST_PG_DATA_DIR="$dir/data"

# tests/contract/postgres.test.ts stops and restarts this server mid-test (a database that goes away).
pg_opts="-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50 -c wal_recycle=off"
cat >"$dir/pgctl" <<PGCTL
#!/usr/bin/env bash
set -e
case "\$1" in
  stop) ${run_pg[*]} $bin/pg_ctl -D $dir/data -m fast -w stop >/dev/null ;;
  start) ${run_pg[*]} $bin/pg_ctl -D $dir/data -l $dir/log -w -o "$pg_opts" start >/dev/null ;;
  *) echo "usage: pgctl stop|start" >&2; exit 2 ;;
esac
PGCTL
chmod 755 "$dir/pgctl"
export TEST_PG_CTL="$dir/pgctl"

if [ $# -gt 0 ]; then
  npx vitest run "$@"
  exit
fi
# The wrong-key lockout holding across two instances on one database.
npx vitest run lib/db lib/jobs lib/http/key-lockout.integration.test.ts
# Against the production build (test.sh builds first): two instances on this database, and the
# database stopping under a running server.
if [ -f .next/BUILD_ID ]; then
  npx vitest run --config tests/contract/vitest.config.ts tests/contract/postgres.test.ts
else
  echo "test-postgres: no production build, skipping tests/contract/postgres.test.ts (run npx next build first)"
fi
