#!/usr/bin/env bash
# Checks our CLI against the Python client's current release: installs kadi-apy 0.51.0 into a
# throwaway virtualenv (KADI_APY_VENV reuses one), runs its whole command set and our CLI's
# equivalent invocations against fresh local servers, compares exit codes, the server state left
# behind and the files written, and prints a summary line:
#   invocations: N, equal: N, documented differences: N, undocumented differences: N
# Exits 1 when a difference is not documented (scripts/interop/known_differences.ts and
# docs/compatibility.md). Extra arguments go to compare.ts (-v: details of documented ones too;
# a word: only the invocations containing it).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
. "$root/scripts/interop/_venv.sh"
cd "$root"
deno run --quiet --allow-net=127.0.0.1 --allow-read --allow-write --allow-env --allow-run \
  scripts/interop/compare.ts --kadi-apy "$KADI_APY" "$@"
