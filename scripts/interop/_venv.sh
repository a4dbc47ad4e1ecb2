# Sourced by the interop scripts: puts kadi-apy 0.51.0 (the Python client's release we compare
# with) into a throwaway virtualenv and sets KADI_APY to its binary. KADI_APY_VENV names an
# existing virtualenv to reuse (it must hold that release); otherwise a temporary one is made and
# removed when the calling script exits.
KADI_APY_VERSION=0.51.0
if [ -n "${KADI_APY_VENV:-}" ]; then
  venv="$KADI_APY_VENV"
else
  venv="$(mktemp -d)/venv"
  trap 'rm -rf "$(dirname "$venv")"' EXIT
fi
if [ ! -x "$venv/bin/kadi-apy" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "kadi-apy==$KADI_APY_VERSION"
fi
KADI_APY="$venv/bin/kadi-apy"
installed="$("$KADI_APY" --version)"
if [ "$installed" != "$KADI_APY_VERSION" ]; then
  echo "expected kadi-apy $KADI_APY_VERSION in $venv, found $installed" >&2
  exit 1
fi
