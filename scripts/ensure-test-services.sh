#!/usr/bin/env bash
# npm test needs four programs besides Node: Debian's Chromium for the browser tests, PostgreSQL (13 or
# later) for throwaway test clusters, nginx for the several-instances tests, and Java for the W3C Nu HTML
# Checker (vnu-jar) that checks every page. On a fresh machine some are missing: install them with apt when
# we can (as root), with one apt-get update, or say exactly how.
set -euo pipefail

missing_packages=()

# Chromium: CHROME_PATH, or Debian's /usr/bin/chromium.
chromium="${CHROME_PATH:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  if [ -n "${CHROME_PATH:-}" ]; then
    echo "CHROME_PATH is set to $CHROME_PATH, but there is no executable there." >&2
    exit 1
  fi
  missing_packages+=(chromium)
fi

# PostgreSQL: initdb and pg_ctl of version 13 or later, where tests/support/postgres.ts looks for them
# (pg_config --bindir, then /usr/lib/postgresql/N/bin, then PATH). Not needed when TEST_DATABASE_URL names a server.
postgres_bin_dir() {
  local dir
  for dir in "$(pg_config --bindir 2>/dev/null || true)" $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5 -rn) $(echo "$PATH" | tr ':' ' '); do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
      local major
      major="$("$dir/initdb" --version | sed -n 's/.*(PostgreSQL) \([0-9]*\).*/\1/p')"
      if [ "${major:-0}" -ge 13 ]; then
        echo "$dir"
        return 0
      fi
    fi
  done
  return 1
}
if [ -z "${TEST_DATABASE_URL:-}" ] && ! postgres_bin_dir >/dev/null; then
  missing_packages+=(postgresql)
fi

# nginx: NGINX_PATH, Debian's /usr/sbin/nginx, or nginx on PATH.
if [ -n "${NGINX_PATH:-}" ]; then
  if [ ! -x "$NGINX_PATH" ]; then
    echo "NGINX_PATH is set to $NGINX_PATH, but there is no executable there." >&2
    exit 1
  fi
elif [ ! -x /usr/sbin/nginx ] && ! command -v nginx >/dev/null 2>&1; then
  missing_packages+=(nginx)
fi

# Java: java on PATH, which tests/support/nuHtmlChecker.ts runs (vnu.jar needs 11 or later; Debian 12's is 17).
if ! command -v java >/dev/null 2>&1; then
  missing_packages+=(default-jre-headless)
fi

if [ ${#missing_packages[@]} -eq 0 ]; then
  exit 0
fi

if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Missing for the tests: ${missing_packages[*]}. Installing Debian's packages (apt-get install -y ${missing_packages[*]})..."
  # The postgresql and nginx packages start their default services (a cluster on port 5432, a site on port 80)
  # unless a policy-rc.d forbids it. The tests run their own on loopback, so forbid it for this install.
  policy=/usr/sbin/policy-rc.d
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy"
    chmod 755 "$policy"
    trap 'rm -f "$policy"' EXIT
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing_packages[@]}" >/dev/null
  # Where systemd runs, the new services would still start at the next boot: turn that off too.
  if [ -d /run/systemd/system ]; then
    for service in postgresql nginx; do
      if [[ " ${missing_packages[*]} " == *" $service "* ]]; then
        if systemctl disable --now --quiet "$service" 2>/dev/null; then
          echo "Disabled the $service service the package enabled (the tests start their own)."
        fi
      fi
    done
  fi
  for package in "${missing_packages[@]}"; do
    case "$package" in
      chromium) echo "Installed $("$chromium" --version 2>/dev/null || echo chromium)." ;;
      postgresql) echo "Installed PostgreSQL $("$(postgres_bin_dir)/initdb" --version | sed 's/.*) //'), without starting its default cluster." ;;
      nginx) echo "Installed $(/usr/sbin/nginx -v 2>&1 | sed 's/.*: //'), without starting its default site." ;;
      default-jre-headless) echo "Installed Java ($(java -version 2>&1 | head -n 1))." ;;
    esac
  done
  exit 0
fi

{
  echo "The tests need ${missing_packages[*]}, and this script cannot install them (it needs root and apt-get)."
  echo "Install them yourself, then run npm test again:"
  echo "  sudo apt-get update && sudo apt-get install -y ${missing_packages[*]}"
  for package in "${missing_packages[@]}"; do
    case "$package" in
      chromium) echo "or point CHROME_PATH at another Chromium or Chrome binary: CHROME_PATH=/path/to/chrome npm test" ;;
      postgresql) echo "or use a PostgreSQL server of your own (13 or later, a user that may CREATE DATABASE): TEST_DATABASE_URL=postgres://user@127.0.0.1:5432/postgres npm test" ;;
      nginx) echo "or point NGINX_PATH at another nginx binary: NGINX_PATH=/path/to/nginx npm test" ;;
      default-jre-headless) echo "or put another Java (11 or later) on PATH as java: the HTML checker runs java -jar vnu.jar" ;;
    esac
  done
} >&2
exit 1
