# Shared settings of up.sh, run.sh and down.sh: where the throwaway Kadi4Mat
# lives and which loopback ports it uses. Override any of them in the
# environment.
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
REAL_SERVER_DIR="${REAL_SERVER_DIR:-$REPO_ROOT/.cache/real-server}"
KADI_VERSION="${KADI_VERSION:-1.13.0}"
KADI_APY_VERSION="${KADI_APY_VERSION:-0.51.0}"
GUNICORN_VERSION="${GUNICORN_VERSION:-23.0.0}"
KADI_PORT="${KADI_PORT:-5023}"
PG_PORT="${PG_PORT:-5433}"
PG_CLUSTER="${PG_CLUSTER:-kadi-real}"
PG_VERSION="${PG_VERSION:-15}"
REDIS_PORT="${REDIS_PORT:-6380}"
ES_PORT="${ES_PORT:-9201}"
KADI_HOST="http://127.0.0.1:$KADI_PORT"
TOKEN_FILE="$REAL_SERVER_DIR/tokens.env"
export KADI_CONFIG_FILE="$REAL_SERVER_DIR/kadi-config.py"
export KADI_ENV=production
# The search backend: Elasticsearch's integ-test distribution from Maven Central (set
# REAL_SERVER_SEARCH=0 to run Kadi without one).
REAL_SERVER_SEARCH="${REAL_SERVER_SEARCH:-1}"
ES_VERSION="${ES_VERSION:-8.19.21}"
ES_HOME="$REAL_SERVER_DIR/es/elasticsearch-$ES_VERSION"
ES_USER="${ES_USER:-kadi-es}"
JAVA_HOME_17="${JAVA_HOME_17:-/usr/lib/jvm/java-17-openjdk-amd64}"
