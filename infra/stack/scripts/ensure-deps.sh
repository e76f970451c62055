#!/usr/bin/env bash
# Installs what `make start` / `make test` need on a fresh machine: npm dependencies (when missing or
# older than the lock file), and Debian's chromium, nginx and gettext-base (envsubst) when absent and apt is usable.
set -euo pipefail
cd "$(dirname "$0")/../../.."
want_browser=${1:-}

# The Node these dependencies' native addons (better-sqlite3, re2, cpu-features) were built for: the
# Makefile runs this with the project's Node (.tools/node, ADR 0016) first on PATH and npm_config_nodedir
# set, so they build against its headers; node_modules from another Node are rebuilt, not reinstalled.
abi_stamp=node_modules/.bosted-node-abi
abi=$(node -p 'process.versions.modules')
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "installing npm dependencies (npm ci) …"
  npm ci --no-audit --no-fund
  echo "$abi" > "$abi_stamp"
elif [ "$(cat "$abi_stamp" 2>/dev/null)" != "$abi" ]; then
  echo "rebuilding native npm dependencies for Node $(node -p 'process.versions.node') …"
  npm rebuild --no-audit --no-fund
  echo "$abi" > "$abi_stamp"
fi

apt_install() {
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    [ -n "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -print -quit 2>/dev/null)" ] || apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
  else
    return 1
  fi
}

# envsubst renders the web image's nginx configuration; make check-docker and its tests run that entrypoint.
if ! command -v envsubst >/dev/null; then
  apt_install gettext-base || echo "envsubst missing: the Docker checks need it (sudo apt-get install -y gettext-base)"
fi
if [ ! -x /usr/sbin/nginx ]; then
  apt_install nginx || echo "nginx not installed: the app is served by the Node fallback (to use nginx: sudo apt-get install -y nginx)"
fi
if [ "$want_browser" = browser ] && [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  apt_install chromium || { echo "chromium is missing: run 'sudo apt-get install -y chromium' (end-to-end tests need it)"; exit 1; }
fi
