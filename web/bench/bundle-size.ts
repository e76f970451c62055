// `make bench` (web bundle): what the browser downloads, gzip-compressed as nginx serves it, for
// /login and for /daily after sign-in, and each route chunk's size. Reads Vite's build manifest.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import {
  budgets,
  LOGIN_BUDGET_KB,
  LOGIN_KEYS,
  pageBudgetKb,
  ROUTE_BUDGETS_KB,
  SHELL_BUDGET_KB,
  START_FILES_MAX,
} from './bundle-budgets.ts'

type Chunk = {
  file: string
  src?: string
  isEntry?: boolean
  imports?: string[]
  dynamicImports?: string[]
  css?: string[]
}

const WEB = join(dirname(fileURLToPath(import.meta.url)), '..')
const DIST = join(WEB, 'dist')
const MANIFEST = join(DIST, '.vite/manifest.json')
/** nginx's gzip_comp_level (infra/nginx/app.conf.template). */
const GZIP_LEVEL = 5

// Always a fresh build: a web/dist left from older sources would print stale figures.
console.log('building the web app (npm run -w web build) …')
const build = spawnSync('npm', ['run', '-w', 'web', 'build'], {
  cwd: join(WEB, '..'),
  stdio: ['ignore', 'ignore', 'inherit'],
})
if (build.status !== 0 || !existsSync(MANIFEST)) process.exit(1)

const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, Chunk>
const gzipSize = new Map<string, number>()
const gz = (file: string) => {
  let size = gzipSize.get(file)
  if (size === undefined) {
    size = gzipSync(readFileSync(join(DIST, file)), { level: GZIP_LEVEL }).length
    gzipSize.set(file, size)
  }
  return size
}
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

/** The files a chunk needs before it runs: itself, its static imports, their CSS. */
function closure(keys: string[], files = new Set<string>()): Set<string> {
  for (const key of keys) {
    const chunk = manifest[key]
    if (chunk === undefined) throw new Error(`not in the manifest: ${key}`)
    if (files.has(chunk.file)) continue
    files.add(chunk.file)
    for (const css of chunk.css ?? []) files.add(css)
    closure(chunk.imports ?? [], files)
  }
  return files
}

function total(files: Set<string>) {
  let js = 0
  let css = 0
  for (const file of files) {
    if (file.endsWith('.css')) css += gz(file)
    else js += gz(file)
  }
  return { js, css }
}

const ENTRY = 'index.html'
const keyOf = (predicate: (key: string) => boolean) => {
  const key = Object.keys(manifest).find(predicate)
  if (key === undefined) throw new Error('an expected module is missing from the manifest')
  return key
}
const FIRESTORE = keyOf((key) => key.includes('firebase/firestore/lite'))
const STORAGE = Object.keys(manifest).find((key) => key.includes('firebase/storage'))

const login = closure(LOGIN_KEYS)
// After sign-in, /daily runs the shell, the page, and what the shell imports on demand at start:
// the user and location loaders with Firestore Lite (Storage only for logos stored as paths). A loader
// the shell imports statically (the location list since it lives in the query cache) is no chunk of
// its own, and is counted with the shell.
const ON_DEMAND_LOADERS = [
  'src/features/session/api/load-session-user.ts',
  'src/features/locations/api/get-locations.ts',
]
const daily = closure([
  ENTRY,
  'src/app/app.tsx',
  'src/app/routes/app-shell.tsx',
  'src/app/routes/daily.tsx',
  ...ON_DEMAND_LOADERS.filter((key) => manifest[key] !== undefined),
  FIRESTORE,
])

const loginTotal = total(login)
const dailyTotal = total(daily)
const forbidden = [manifest[FIRESTORE]?.file, STORAGE === undefined ? undefined : manifest[STORAGE]?.file]
const loginHasCloudCode =
  forbidden.some((file) => file !== undefined && login.has(file)) ||
  [...login].some((file) =>
    /firestore\.googleapis\.com|firebasestorage\.googleapis\.com/.test(readFileSync(join(DIST, file), 'utf8')),
  )

console.log(`gzip level ${GZIP_LEVEL} (as nginx serves it)`)
console.log(`/login  JS ${kb(loginTotal.js).padStart(9)}  CSS ${kb(loginTotal.css).padStart(8)}  (${login.size} files)`)
console.log(
  `/daily  JS ${kb(dailyTotal.js).padStart(9)}  CSS ${kb(dailyTotal.css).padStart(8)}  (${daily.size} files, after sign-in)`,
)
const checked = budgets(DIST)
console.log(
  `budget /login ≤ ${LOGIN_BUDGET_KB} KB gzip JS before the form works (issue 34): ` +
    `${loginTotal.js <= LOGIN_BUDGET_KB * 1024 ? 'met' : 'MISSED'}; ` +
    `Firestore or Storage code on /login: ${loginHasCloudCode ? 'YES (target missed)' : 'none'}; ` +
    `SDK/toaster/chart code before the form works: ${checked.loginCarries.join(', ') || 'none'}`,
)
console.log(`signed-in shell: ${checked.shellKb.toFixed(1)} KB gzip JS (ceiling ${SHELL_BUDGET_KB} KB)`)
console.log(
  `a signed-in page's start (shell, session loaders, early reads): ${checked.startFiles} JS files (at most ${START_FILES_MAX})`,
)
console.log(`chunks that import each other: ${checked.cycles.join('; ') || 'none'}`)
console.log(
  'route code beyond the shell (zod apart) ≤ its ceiling (the figure before issue 33); the page as it loads (shell, route, zod) ≤ both ceilings:',
)
for (const [route, kb] of Object.entries(checked.routes))
  console.log(
    `  ${route.replace('src/app/routes/', '').padEnd(36)} ${kb.toFixed(1).padStart(6)} KB  ≤ ${ROUTE_BUDGETS_KB[route] ?? '(none)'}` +
      `   page ${(checked.pages[route] ?? 0).toFixed(1).padStart(6)} KB  ≤ ${pageBudgetKb(route).toFixed(1)}`,
  )

console.log('\nroute chunks (own file; + what it adds beyond the entry):')
const entryFiles = closure([ENTRY])
const rows = Object.entries(manifest)
  .filter(([key]) => key.startsWith('src/app/routes/'))
  .map(([key, chunk]) => {
    const added = [...closure([key])].filter((file) => !entryFiles.has(file))
    return {
      route: key.replace('src/app/routes/', ''),
      own: gz(chunk.file),
      added: added.reduce((sum, file) => sum + gz(file), 0),
    }
  })
  .sort((a, b) => a.route.localeCompare(b.route))
for (const row of rows)
  console.log(`  ${row.route.padEnd(36)} ${kb(row.own).padStart(9)}  +${kb(row.added).padStart(9)}`)

console.log('\nshared chunks:')
for (const [key, chunk] of Object.entries(manifest)) {
  if (key.startsWith('src/app/routes/')) continue
  if (!chunk.file.endsWith('.js')) continue
  const label = key === ENTRY ? 'entry chunk (index.html)' : key.replace(/^.*node_modules\//, '').slice(0, 48)
  console.log(`  ${label.padEnd(48)} ${kb(gz(chunk.file)).padStart(9)}`)
}
