// The web's code budgets (gzip 5, as nginx serves it), read from a build's Vite manifest: what /login
// loads before its form works, and each care page's code beyond the signed-in shell. Checked by
// web/src/bundle-budgets.test.ts (a regression fails `make test`) and printed by bundle-size.ts.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'

export type Manifest = Record<string, { file: string; imports?: string[]; css?: string[] }>

/**
 * /login before the form works (issue 34: at most 100 KB): a first visit shows the sign-in form alone
 * (main.tsx), so it loads the entry and the form with their static imports — React DOM (≈ 65 KB), the
 * Danish messages and the form, no router, no route table, no Firebase (80.9 KB on 2026-11-26; 118.4
 * KB while the router and the route table came first).
 */
export const LOGIN_BUDGET_KB = 100
/** The modules a first visit to /login loads before its form works (see main.tsx). */
export const LOGIN_KEYS = ['index.html', 'src/app/login-page.tsx']
/** Route code beyond the signed-in shell, zod's shared runtime not counted (web/BENCHMARKS.md targets). */
export const ROUTE_BUDGETS_KB: Record<string, number> = {
  'src/app/routes/daily.tsx': 25,
  'src/app/routes/notes.tsx': 25,
  'src/app/routes/statistics/statistics.tsx': 80,
}
/** Code /login must not carry before its form works, each known by a string only it contains. */
export const NOT_ON_LOGIN: Record<string, string> = {
  'Firebase Auth': 'identitytoolkit.googleapis.com',
  'React Router (and with it the route table)': 'may be used only in the context of a <Router>',
  Firestore: 'firestore.googleapis.com',
  'Cloud Storage': 'firebasestorage.googleapis.com',
  'the toaster (sonner)': 'data-sonner-toaster',
  uPlot: 'uplot',
}

/** Every file the given entries load before they run: themselves and their static imports. */
export function closure(manifest: Manifest, keys: string[], files = new Set<string>()): Set<string> {
  for (const key of keys) {
    const entry = manifest[key]
    if (entry === undefined) throw new Error(`not in the manifest: ${key}`)
    if (files.has(entry.file)) continue
    files.add(entry.file)
    closure(manifest, entry.imports ?? [], files)
  }
  return files
}

export function budgets(dist: string) {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Manifest
  const text = (file: string) => readFileSync(join(dist, file), 'utf8')
  const gz = (file: string) => gzipSync(readFileSync(join(dist, file)), { level: 5 }).length
  const kb = (files: Iterable<string>) => [...files].reduce((sum, file) => sum + gz(file), 0) / 1024

  const login = [...closure(manifest, LOGIN_KEYS)].filter((file) => file.endsWith('.js'))
  const shell = closure(manifest, ['index.html', 'src/app/app.tsx', 'src/app/routes/app-shell.tsx'])
  const routes = Object.fromEntries(
    Object.keys(ROUTE_BUDGETS_KB).map((route) => {
      const own = [...closure(manifest, [route])].filter(
        (file) => file.endsWith('.js') && !shell.has(file) && !text(file).includes('ZodError'),
      )
      return [route, kb(own)]
    }),
  )
  const loginCarries = Object.entries(NOT_ON_LOGIN)
    .filter(([, marker]) => login.some((file) => text(file).toLowerCase().includes(marker.toLowerCase())))
    .map(([name]) => name)
  return { loginKb: kb(login), loginFiles: login.length, loginCarries, routes }
}
