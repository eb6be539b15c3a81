#!/usr/bin/env bash
# What the tests need from Debian's packages, installed when missing: Chromium for the
# browser tests, a PostgreSQL server for the second pass, GNU gettext for makemessages,
# python3-venv for .venv, and a font for the screenshots. Installed already: does nothing.
# As root it installs them (apt-get update only then); otherwise it says what to install.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || missing+=(postgresql)
command -v msgfmt >/dev/null 2>&1 || missing+=(gettext)
python3 -c "import venv, ensurepip" >/dev/null 2>&1 || missing+=(python3-venv)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)

[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$EUID" -ne 0 ]; then
  echo "system_deps.sh: missing Debian packages: ${missing[*]}" >&2
  echo "install them with: sudo apt-get install --no-install-recommends ${missing[*]}" >&2
  exit 1
fi

echo "system_deps.sh: installing ${missing[*]}"
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
