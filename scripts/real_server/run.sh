#!/usr/bin/env bash
# Runs repo-apy's CLI across every command group against the real Kadi4Mat that up.sh
# set up (starting it if needed), with kadi-apy as the control. The last line is
# `real-server: N invocations, M as expected, K unexpected`.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/_env.sh"
out="$("$REPO_ROOT/scripts/real_server/up.sh")"
host="$(tail -2 <<<"$out" | head -1)"
tokens="$(tail -1 <<<"$out")"
work="$REAL_SERVER_DIR/run"
rm -rf "$work" && mkdir -p "$work"
DENO="${DENO:-deno}"
command -v "$DENO" >/dev/null || DENO="$REPO_ROOT/.cache/deno-2.9.6/node_modules/.bin/deno"
cd "$REPO_ROOT"
"$DENO" run --allow-read --allow-write="$work" --allow-env \
  --allow-run="$REAL_SERVER_DIR/apy/bin/kadi-apy,$("$DENO" eval 'console.log(Deno.execPath())')" \
  scripts/real_server/run.ts "$host" "$tokens" "$work" "$REAL_SERVER_DIR/apy/bin/kadi-apy"
