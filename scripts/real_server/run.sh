#!/usr/bin/env bash
# Runs repo-apy against the real Kadi4Mat that up.sh sets up (starting it if needed):
#   1. diff.ts: the same HTTP requests to the real server and to the local server
#      (lib/testing), with every difference in status, headers and JSON shape;
#   2. run.ts: repo-apy's CLI across every command group, kadi-apy 0.51.0 as the control (with
#      an ELN import's MIME types, and a private CA given by the environment alone through a
#      local TLS proxy, which needs openssl).
# The last line is `real-server: N invocations, M as expected, K unexpected`.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/_env.sh"
out="$("$REPO_ROOT/scripts/real_server/up.sh")"
host="$(tail -2 <<<"$out" | head -1)"
tokens="$(tail -1 <<<"$out")"
work="$REAL_SERVER_DIR/run"
rm -rf "$work" && mkdir -p "$work" "$REPO_ROOT/.cache/tmp"
DENO="${DENO:-deno}"
command -v "$DENO" >/dev/null || DENO="$REPO_ROOT/.cache/deno-2.9.6/node_modules/.bin/deno"
export REAL_SERVER_SEARCH
cd "$REPO_ROOT"
TMPDIR="$REPO_ROOT/.cache/tmp" "$DENO" run --quiet --allow-net=127.0.0.1 \
  --allow-read="$REPO_ROOT,$REAL_SERVER_DIR" --allow-write="$REPO_ROOT/.cache/tmp" --allow-env \
  scripts/real_server/diff.ts "$host" "$tokens"
"$DENO" run --quiet --allow-read --allow-write="$work" --allow-env --allow-net=127.0.0.1 \
  --allow-run="$REAL_SERVER_DIR/apy/bin/kadi-apy,openssl,$("$DENO" eval 'console.log(Deno.execPath())')" \
  scripts/real_server/run.ts "$host" "$tokens" "$work" "$REAL_SERVER_DIR/apy/bin/kadi-apy"
