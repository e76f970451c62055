// Adgangslog (issue 22), the web's part: the code the two access-log routes load beyond the signed-in
// shell (gzip 5, as nginx serves it), and that none of the viewer is in /login, /daily or the admin's
// Indstillinger tab. Builds the web first unless ACCESS_LOG_BENCH_SKIP_BUILD=1 (reads web/dist).
// The viewer's first-page latency over 100,000 entries is the api's benchmark (api/bench).
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { manifestClosure, readManifest, routeChunk } from './bench-location.ts'

const WEB = join(dirname(fileURLToPath(import.meta.url)), '..')
const TARGET_KB = 10

if (process.env.ACCESS_LOG_BENCH_SKIP_BUILD !== '1') {
  console.log('building the web app (npm run -w web build) …')
  const build = spawnSync('npm', ['run', '-w', 'web', 'build'], {
    cwd: join(WEB, '..'),
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  if (build.status !== 0) process.exit(1)
}
const manifest = readManifest() as Record<string, { file: string; css?: string[]; imports?: string[] }> | null
if (manifest === null) {
  console.error('no web/dist/.vite/manifest.json: build the web first')
  process.exit(1)
}

const ROUTES = ['src/app/routes/admin/person-access-log.tsx', 'src/app/routes/person/settings/access-log.tsx']
for (const route of ROUTES) console.log(`  ${route.replace('src/app/routes/', '')}: ${routeChunk(route)}`)

const panel = Object.entries(manifest).find(([key]) => key.includes('access-log-panel') && key.endsWith('.js'))?.[1]
if (panel !== undefined) {
  const gz = (file: string) => gzipSync(readFileSync(join(WEB, 'dist', file)), { level: 5 }).length
  const css = (panel.css ?? []).reduce((sum, file) => sum + gz(file), 0)
  const js = gz(panel.file)
  console.log(
    `  the viewer (panel, filters, CSV rows, api calls): ${(js / 1024).toFixed(1)} KB JS + ${(css / 1024).toFixed(1)} KB CSS — target ≤ ${TARGET_KB} KB`,
  )
  const elsewhere = {
    '/login': ['index.html', 'src/app/routes/login.tsx'],
    '/daily': ['index.html', 'src/app/routes/app-shell.tsx', 'src/app/routes/daily.tsx'],
    'admin Indstillinger tab': ['src/app/routes/admin/person-layout.tsx', 'src/app/routes/admin/person-settings.tsx'],
  }
  for (const [name, keys] of Object.entries(elsewhere)) {
    const loads = manifestClosure(manifest, keys).has(panel.file)
    console.log(`  viewer code in ${name}: ${loads ? 'YES (should not be)' : 'none'}`)
  }
}
