// `make bench`: runs each workspace's benchmark that exists and prints its figures.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'

const root = new URL('../../..', import.meta.url).pathname
const benches = [
  ['emulator-lite', 'infra/emulator-lite/bench/bench.ts'],
  ['Auth: emulator-lite vs official', 'infra/emulator-lite/bench/auth-bench.ts'],
  ['signed identity: verification cost, on vs off', 'infra/emulator-lite/bench/identity-bench.ts'],
  ['Firestore: emulator-lite vs the official emulator (gcloud)', 'infra/emulator-lite/bench/parity-bench.ts'],
  ['access log: on vs off, viewer at 100k entries', 'infra/emulator-lite/bench/access-log-bench.ts'],
  [
    'compression of JSON answers: identity vs gzip vs brotli (ADR 0028)',
    'infra/emulator-lite/bench/compression-bench.ts',
  ],
  ['SQLite: better-sqlite3 vs node:sqlite (ADR 0016)', 'infra/emulator-lite/bench/sqlite-bench.ts'],
  [
    'shift change: 20/50/100 staff (SHIFT_BENCH_SECONDS, default 20 s each)',
    'infra/emulator-lite/bench/shift-bench.ts',
  ],
  [
    'Firestore listeners: write → snapshot (gRPC, WebChannel), 1,000 idle, 100 active under 200 writes/s (issue 35)',
    'infra/emulator-lite/bench/listen-bench.ts',
  ],
  ['make start (warm)', 'infra/stack/scripts/bench-start.ts'],
  ['api', 'api/bench/bench.ts'],
  ['seed', 'seed/bench.ts'],
  ['web bundle', 'web/bench/bundle-size.ts'],
  ['web: /daily (60 persons × 90 days)', 'web/bench/daily-bench.ts'],
  ['web: /notes (60 persons × 90 days)', 'web/bench/notes-bench.ts'],
  ['web: /statistics (60 persons × 90 days)', 'web/bench/statistics-bench.ts'],
  ['web: Adgangslog route code', 'web/bench/access-log-bundle.ts'],
  ["web: the care home's tablet, throttled (issue 34)", 'web/bench/tablet-bench.ts'],
  [
    "web: a page's code through the pilot's edge, HTTP/1.1 vs HTTP/2, tablet profile",
    'web/bench/origin-protocol-bench.ts',
  ],
]
let failed = 0
for (const [name, file] of benches) {
  if (!existsSync(join(root, file))) {
    console.log(`\n=== ${name}: no benchmark yet (${file}) ===`)
    continue
  }
  console.log(`\n=== ${name} (${file}) ===`)
  const run = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: root, stdio: 'inherit' })
  if (run.status !== 0) failed += 1
}
process.exit(failed === 0 ? 0 : 1)
