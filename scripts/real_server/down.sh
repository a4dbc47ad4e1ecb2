#!/usr/bin/env bash
# Stops everything up.sh started (the Celery worker, gunicorn, Redis, the
# PostgreSQL cluster, the search backend if any). Data stays in
# $REAL_SERVER_DIR and in the cluster; `down.sh --purge` removes both too.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/_env.sh"

stop_pidfile() { # name pidfile
  local pid
  [[ -f "$2" ]] || return 0
  pid="$(cat "$2")"
  if kill -0 "$pid" 2>/dev/null; then
    echo "down: stopping $1 ($pid)" >&2
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
  fi
  rm -f "$2"
}

if [[ -d "$REAL_SERVER_DIR" ]]; then
  stop_pidfile "the Celery worker" "$REAL_SERVER_DIR/celery.pid"
  stop_pidfile gunicorn "$REAL_SERVER_DIR/gunicorn.pid"
  stop_pidfile "the search backend" "$REAL_SERVER_DIR/es-run/es.pid"
  stop_pidfile redis-server "$REAL_SERVER_DIR/redis.pid"
fi
if pg_lsclusters -h 2>/dev/null | awk -v c="$PG_CLUSTER" '$2==c{print $4}' | grep -q online; then
  echo "down: stopping PostgreSQL $PG_VERSION/$PG_CLUSTER" >&2
  pg_ctlcluster "$PG_VERSION" "$PG_CLUSTER" stop
fi
if [[ "${1:-}" == --purge ]]; then
  pg_lsclusters -h 2>/dev/null | awk '{print $2}' | grep -qx "$PG_CLUSTER" && pg_dropcluster "$PG_VERSION" "$PG_CLUSTER"
  rm -rf "$REAL_SERVER_DIR"
  id "$ES_USER" >/dev/null 2>&1 && userdel "$ES_USER"
  echo "down: purged" >&2
fi
exit 0
