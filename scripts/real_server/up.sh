#!/usr/bin/env bash
# Sets up (or resumes) a throwaway Kadi4Mat on this machine, loopback only:
# kadi from PyPI in a virtualenv, PostgreSQL and Redis from Debian's packages,
# gunicorn serving the web app on 127.0.0.1 and the Celery worker. Idempotent:
# every step checks whether it is already done. See docs/real-server.md.
#
# The last two lines printed are the host and the path of a file that holds
# the two users' tokens (KADI_TOKEN, KADI_TOKEN2, shell syntax).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/_env.sh"

log() { printf 'up: %s\n' "$*" >&2; }
mkdir -p "$REAL_SERVER_DIR"
cd "$REAL_SERVER_DIR"

# 1. Debian packages (PostgreSQL, Redis, a JDK for the optional search backend).
need=()
command -v pg_createcluster >/dev/null || need+=(postgresql)
command -v redis-server >/dev/null || need+=(redis-server)
command -v python3 >/dev/null || need+=(python3 python3-venv)
if [[ "$REAL_SERVER_SEARCH" == 1 ]] && [[ ! -x "$JAVA_HOME_17/bin/javac" ]]; then
  need+=(openjdk-17-jdk-headless)
fi
command -v unzip >/dev/null || need+=(unzip)
if ((${#need[@]})); then
  log "apt-get install ${need[*]}"
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >&2
fi

# 2. The server and the Python client in two virtualenvs (their pins conflict).
version_of() { "$1/bin/pip" show "$2" 2>/dev/null | sed -n 's/^Version: //p'; }
if [[ "$(version_of venv kadi)" != "$KADI_VERSION" || "$(version_of venv gunicorn)" != "$GUNICORN_VERSION" ]]; then
  log "pip install kadi==$KADI_VERSION gunicorn==$GUNICORN_VERSION"
  python3 -m venv venv
  venv/bin/pip install -q "kadi==$KADI_VERSION" "gunicorn==$GUNICORN_VERSION" >&2
fi
if [[ "$(version_of apy kadi-apy)" != "$KADI_APY_VERSION" ]]; then
  log "pip install kadi-apy==$KADI_APY_VERSION"
  python3 -m venv apy
  apy/bin/pip install -q "kadi-apy==$KADI_APY_VERSION" >&2
fi

# 3. PostgreSQL: a cluster of its own on a loopback port.
if ! pg_lsclusters -h | awk '{print $1"/"$2}' | grep -qx "$PG_VERSION/$PG_CLUSTER"; then
  log "pg_createcluster $PG_VERSION $PG_CLUSTER (port $PG_PORT)"
  pg_createcluster "$PG_VERSION" "$PG_CLUSTER" -p "$PG_PORT" \
    -- --auth-local=peer --auth-host=scram-sha-256 >&2
  # Loopback only (written directly: pg_conftool and -o quote the value differently).
  sed -i "s/^#\?listen_addresses = .*/listen_addresses = '127.0.0.1'/" \
    "/etc/postgresql/$PG_VERSION/$PG_CLUSTER/postgresql.conf"
fi
if ! pg_lsclusters -h | awk -v c="$PG_CLUSTER" '$2==c{print $4}' | grep -qx online; then
  log "starting PostgreSQL $PG_VERSION/$PG_CLUSTER"
  pg_ctlcluster "$PG_VERSION" "$PG_CLUSTER" start
fi
psql_pg() { runuser -u postgres -- psql -p "$PG_PORT" -tAq "$@"; }
if [[ "$(psql_pg -c "select 1 from pg_roles where rolname='kadi'")" != 1 ]]; then
  log "createuser kadi, createdb kadi"
  runuser -u postgres -- psql -p "$PG_PORT" -q -c "create role kadi login password 'kadi'" >&2
fi
if [[ "$(psql_pg -c "select 1 from pg_database where datname='kadi'")" != 1 ]]; then
  runuser -u postgres -- createdb -p "$PG_PORT" -O kadi -E utf-8 -T template0 kadi
fi

# 4. Redis on a loopback port, no persistence.
if ! redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping >/dev/null 2>&1; then
  log "starting redis-server on 127.0.0.1:$REDIS_PORT"
  redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --daemonize yes --save '' --appendonly no \
    --dir "$REAL_SERVER_DIR" --pidfile "$REAL_SERVER_DIR/redis.pid" --logfile "$REAL_SERVER_DIR/redis.log"
  for _ in $(seq 50); do redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
fi

# 4b. The search backend (optional): Elasticsearch's integ-test-zip from Maven Central. It lacks
# the analysis-common module, whose "ngram" tokenizer Kadi's mappings use; es-ngram/ registers
# Lucene's NGramTokenizer under that name as a plugin, built here with the JDK.
es_alive() { [[ -f es-run/es.pid ]] && kill -0 "$(cat es-run/es.pid)" 2>/dev/null; }
if [[ "$REAL_SERVER_SEARCH" == 1 ]]; then
  if [[ ! -d "$ES_HOME" ]]; then
    url="https://repo1.maven.org/maven2/org/elasticsearch/distribution/integ-test-zip/elasticsearch/$ES_VERSION/elasticsearch-$ES_VERSION.zip"
    log "downloading $url"
    curl -fsSL -o es.zip "$url"
    echo "$(curl -fsSL "$url.sha1")  es.zip" | sha1sum -c --quiet
    rm -rf es && mkdir es && unzip -q es.zip -d es && rm es.zip
    cat >>"$ES_HOME/config/elasticsearch.yml" <<ESCONF
network.host: 127.0.0.1
http.port: $ES_PORT
transport.port: $((ES_PORT + 100))
discovery.type: single-node
xpack.security.enabled: false
path.data: $REAL_SERVER_DIR/es-data
path.logs: $REAL_SERVER_DIR/es-logs
ESCONF
    log "building the ngram tokenizer plugin"
    rm -rf es-ngram && mkdir -p es-ngram/classes "$ES_HOME/plugins/kadi-ngram"
    "$JAVA_HOME_17/bin/javac" --release 17 -d es-ngram/classes -cp "$ES_HOME/lib/*" \
      "$REPO_ROOT/scripts/real_server/es-ngram/NgramPlugin.java"
    "$JAVA_HOME_17/bin/jar" cf "$ES_HOME/plugins/kadi-ngram/kadi-ngram.jar" -C es-ngram/classes .
    cat >"$ES_HOME/plugins/kadi-ngram/plugin-descriptor.properties" <<DESC
description=Lucene's n-gram tokenizer as "ngram"
version=1.0
name=kadi-ngram
classname=kadireal.NgramPlugin
java.version=17
elasticsearch.version=$ES_VERSION
DESC
  fi
  # Elasticsearch refuses to run as root.
  id "$ES_USER" >/dev/null 2>&1 || useradd --system --no-create-home "$ES_USER"
  mkdir -p es-data es-logs es-run
  chown -R "$ES_USER" es es-data es-logs es-run
  if ! es_alive; then
    log "starting Elasticsearch $ES_VERSION on 127.0.0.1:$ES_PORT"
    (cd "$ES_HOME" && ES_JAVA_HOME="$JAVA_HOME_17" ES_JAVA_OPTS="-Xms512m -Xmx512m" \
      runuser -u "$ES_USER" -- bin/elasticsearch -d -p "$REAL_SERVER_DIR/es-run/es.pid" >es-start.log 2>&1) ||
      { tail -20 es-logs/*.log >&2; exit 1; }
  fi
  for _ in $(seq 240); do
    curl -fs "http://127.0.0.1:$ES_PORT/_cluster/health" >/dev/null && break
    sleep 0.5
  done
  curl -fs "http://127.0.0.1:$ES_PORT/_cluster/health" >/dev/null ||
    { log "Elasticsearch does not answer on 127.0.0.1:$ES_PORT"; exit 1; }
  es_hosts="\"http://127.0.0.1:$ES_PORT\""
else
  es_alive && kill "$(cat es-run/es.pid)"
  es_hosts=None
fi

# 5. Kadi's config file.
mkdir -p storage uploads
if [[ ! -f "$KADI_CONFIG_FILE" ]]; then
  log "writing $KADI_CONFIG_FILE"
  secret="$(python3 -c 'import secrets; print(secrets.token_hex(32))')"
  cat > "$KADI_CONFIG_FILE" <<CONF
SQLALCHEMY_DATABASE_URI = "postgresql://kadi:kadi@127.0.0.1:$PG_PORT/kadi"
STORAGE_PATH = "$REAL_SERVER_DIR/storage"
MISC_UPLOADS_PATH = "$REAL_SERVER_DIR/uploads"
SERVER_NAME = "127.0.0.1:$KADI_PORT"
SECRET_KEY = "$secret"
CELERY_BROKER_URL = "redis://127.0.0.1:$REDIS_PORT/0"
RATELIMIT_STORAGE_URI = "redis://127.0.0.1:$REDIS_PORT/0"
# Plain HTTP on loopback, no web server in front that would honour X-Sendfile.
PREFERRED_URL_SCHEME = "http"
SESSION_COOKIE_SECURE = False
LOCALE_COOKIE_SECURE = False
USE_X_SENDFILE = False
SMTP_USE_TLS = False
CONF
fi
# The search backend can be switched on and off between runs: this line follows the setting.
sed -i '/^ELASTICSEARCH_HOSTS = /d' "$KADI_CONFIG_FILE"
echo "ELASTICSEARCH_HOSTS = $es_hosts" >>"$KADI_CONFIG_FILE"

# 6. Database schema, system roles and licenses: Kadi's own CLI.
if [[ ! -f db.done ]]; then
  log "kadi db upgrade, kadi db init"
  if ! venv/bin/kadi db upgrade >db.log 2>&1; then cat db.log >&2; exit 1; fi
  venv/bin/kadi db init >>db.log 2>&1
  touch db.done
fi
# The search indices (after the schema: reindexing reads the database).
if [[ "$REAL_SERVER_SEARCH" == 1 && ! -f search.done ]]; then
  log "kadi search init, kadi search reindex"
  venv/bin/kadi search init >>search.log 2>&1
  venv/bin/kadi search reindex --i-am-sure >>search.log 2>&1
  touch search.done
fi
[[ "$REAL_SERVER_SEARCH" == 1 ]] || rm -f search.done

# 7. Two local users (Kadi's CLI) and a personal access token each (Kadi's models).
for u in alice bob; do
  if [[ ! -f "user-$u.txt" ]]; then
    log "kadi users create $u"
    venv/bin/kadi users create -y -u "$u" -d "${u^} Real" -e "$u@example.org" >"user-$u.txt"
  fi
done
if [[ ! -f "$TOKEN_FILE" ]]; then
  log "creating personal access tokens"
  KADI_APP_FROM_CLI=1 venv/bin/python - "$TOKEN_FILE" <<'PY'
import sys
from kadi.app import create_app
from kadi.ext.db import db
from kadi.lib.api.models import PersonalToken
from kadi.lib.api.utils import get_access_token_scopes
from kadi.modules.accounts.models import LocalIdentity

app = create_app()
with app.app_context():
    # Every scope the settings page offers, as a full-access token made there has.
    scope = " ".join(
        f"{obj}.{action}"
        for obj, actions in get_access_token_scopes().items()
        for action in actions
    )
    lines = []
    for var, name in (("KADI_TOKEN", "alice"), ("KADI_TOKEN2", "bob")):
        identity = LocalIdentity.query.filter_by(username=name).first()
        token = PersonalToken.new_token()
        PersonalToken.create(user=identity.user, name="real-server", scope=scope, token=token)
        lines.append(f"{var}={token}\n")
        lines.append(f"{var}_USER_ID={identity.user.id}\n")
    db.session.commit()
    with open(sys.argv[1], "w") as f:
        f.writelines(lines)
PY
  chmod 600 "$TOKEN_FILE"
fi

# 8. The web app (gunicorn on loopback) and the background worker.
alive() { [[ -f "$1" ]] && kill -0 "$(cat "$1")" 2>/dev/null; }
# A changed config file (the search backend switched) restarts the app and the worker.
config_sum="$(md5sum <"$KADI_CONFIG_FILE")"
if [[ "$(cat running.config 2>/dev/null)" != "$config_sum" ]] && { alive gunicorn.pid || alive celery.pid; }; then
  log "the config changed: restarting gunicorn and the worker"
  for p in gunicorn.pid celery.pid; do
    if alive "$p"; then
      kill "$(cat "$p")"
      for _ in $(seq 100); do alive "$p" || break; sleep 0.1; done
    fi
    rm -f "$p"
  done
fi
echo "$config_sum" >running.config
if ! alive gunicorn.pid; then
  log "starting gunicorn on 127.0.0.1:$KADI_PORT"
  venv/bin/gunicorn --bind "127.0.0.1:$KADI_PORT" --workers 2 --timeout 300 \
    --pid gunicorn.pid --daemon --error-logfile gunicorn.log --capture-output kadi.wsgi:app
fi
if ! alive celery.pid; then
  log "starting the Celery worker"
  # "celery worker --detach" exits quietly under Kadi's CLI wrapper: background it here.
  setsid venv/bin/kadi celery worker --concurrency 2 --loglevel INFO \
    >celery.log 2>&1 </dev/null &
  echo $! >celery.pid
fi
for _ in $(seq 120); do
  code="$(curl -s -o /dev/null -w '%{http_code}' "$KADI_HOST/api/info" || true)"
  [[ "$code" == 401 ]] && break # up: the API answers, and wants a token
  sleep 0.5
done
[[ "$code" == 401 ]] || { log "the server did not answer $KADI_HOST/api/info ($code)"; tail -20 gunicorn.log >&2; exit 1; }
echo "$KADI_HOST"
echo "$TOKEN_FILE"
