#!/usr/bin/env bash
# The first `make start` from a clean clone (Node fetched, npm ci with native builds, web build, seed),
# then a warm one, each timed to "Press Ctrl-C to stop." (issue 30; figures in the BENCHMARKS.md files).
#   infra/stack/scripts/bench-first-start.sh <commit-or-branch> <scratch-dir>
# Clones this repository into <scratch-dir> (removed first) and runs there on ports 18000/13001/19099/…
set -uo pipefail
src=$(cd "$(dirname "$0")/../../.." && pwd)
ref=${1:?commit or branch}
dir=${2:?scratch directory}
rm -rf "$dir"
git clone -q "$src" "$dir" && cd "$dir" && git checkout -q "$ref" || exit 1
export APP_PORT=18000 API_PORT=13001 AUTH_PORT=19099 FIRESTORE_PORT=18080 STORAGE_PORT=19199 \
  EMULATOR_ADMIN_PORT=19098 EMULATOR_HUB_PORT=14400 EMULATOR_LOGGING_PORT=14500
run() {
  local label=$1 log=$dir/start-$1.log t0 t1 pid
  t0=$(date +%s.%N)
  setsid make start >"$log" 2>&1 &
  pid=$!
  until grep -q 'Press Ctrl-C to stop.' "$log"; do
    if ! kill -0 "$pid" 2>/dev/null; then echo "$label: make start exited"; tail -20 "$log"; return 1; fi
    sleep 0.2
  done
  t1=$(date +%s.%N)
  echo "$label make start to ready: $(echo "$t1 - $t0" | bc) s (load $(cut -d' ' -f1-3 /proc/loadavg))"
  kill -INT -- "-$pid"
  wait "$pid"
}
echo "node on PATH before make: $(node --version 2>/dev/null || echo none)"
run first && run warm
