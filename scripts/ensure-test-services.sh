#!/usr/bin/env bash
# The browser tests drive Debian's Chromium through puppeteer-core. On a fresh machine it is missing:
# install it with apt when we can (as root), or say exactly how.
set -euo pipefail
chromium="${CHROME_PATH:-/usr/bin/chromium}"
if [ -x "$chromium" ]; then
  exit 0
fi
if [ -n "${CHROME_PATH:-}" ]; then
  echo "CHROME_PATH is set to $CHROME_PATH, but there is no executable there." >&2
  exit 1
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Chromium is missing: installing Debian's chromium package for the browser tests (apt-get install -y chromium)..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  echo "Installed $("$chromium" --version 2>/dev/null || echo chromium)."
  exit 0
fi
cat >&2 <<'MSG'
The browser tests need Chromium at /usr/bin/chromium, and this script cannot install it (it needs root and apt-get).
Install it yourself, then run npm test again:
  sudo apt-get update && sudo apt-get install -y chromium
or point CHROME_PATH at another Chromium or Chrome binary:
  CHROME_PATH=/path/to/chrome npm test
MSG
exit 1
