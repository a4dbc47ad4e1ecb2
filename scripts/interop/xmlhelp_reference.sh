#!/usr/bin/env bash
# Writes the --xmlhelp output of every command of kadi-apy 0.51.0, one XML document after the
# other in `kadi-apy --commands` order, to tests/cli/testdata/kadi_apy_0.51.0_xmlhelp.txt: the
# reference tests/cli/xml_help_reference_test.ts compares our --xmlhelp with (without Python).
#
#   scripts/interop/xmlhelp_reference.sh            # a throwaway virtualenv
#   KADI_APY_VENV=/tmp/kadi-venv scripts/interop/xmlhelp_reference.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
. "$root/scripts/interop/_venv.sh"
target="$root/tests/cli/testdata/kadi_apy_${KADI_APY_VERSION}_xmlhelp.txt"
work="$(mktemp -d)"
# The client reads no config for --xmlhelp; an empty HOME keeps the user's out of it.
"$KADI_APY" --commands | while read -r _ group command; do
  HOME="$work" "$KADI_APY" "$group" "$command" --xmlhelp
done > "$work/out.txt"
mv "$work/out.txt" "$target"
rmdir "$work" 2>/dev/null || rm -rf "$work"
echo "wrote $(grep -c '^<program' "$target") commands to ${target#"$root"/}" >&2
