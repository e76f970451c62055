// The web's code budgets (gzip 5, as nginx serves it), read from a build's Vite manifest: what /login
// loads before its form works, and each care page's code beyond the signed-in shell. Checked by
// web/src/bundle-budgets.test.ts (a regression fails `make test`) and printed by bundle-size.ts.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'

export type Manifest = Record<string, { file: string; imports?: string[]; css?: string[]; isDynamicEntry?: boolean }>

/**
 * /login before the form works (issue 34: at most 100 KB): a first visit shows the sign-in form alone
 * (main.tsx), so it loads the entry and the form with their static imports — React DOM (≈ 65 KB), the
 * Danish messages and the form, no router, no route table, no Firebase (80.9 KB on 2026-11-26; 118.4
 * KB while the router and the route table came first).
 */
export const LOGIN_BUDGET_KB = 100
/** The modules a first visit to /login loads before its form works (see main.tsx). */
export const LOGIN_KEYS = ['index.html', 'src/app/login-page.tsx']
/**
 * Each route module's code beyond the signed-in shell, zod's shared runtime not counted: at most what it
 * was before issue 33 (4d9ecce, measured with this same function; issue 33: "no page's route code larger
 * than before"). A new route needs its ceiling here (the test fails on a route without one). One
 * exception: the router's /login route (2.18 KB before) carries the password-policy call, whose answer is
 * parsed with its domain schema since issue 33 (a dynamic import and its preload list, +0.2 KB), so its
 * ceiling is 2.5 KB. Before/after per route: web/BENCHMARKS.md.
 */
export const ROUTE_BUDGETS_KB: Record<string, number> = {
  'src/app/routes/admin/index.tsx': 11.9,
  'src/app/routes/admin/location.tsx': 14.1,
  'src/app/routes/admin/person-access-log.tsx': 13.5,
  'src/app/routes/admin/person-layout.tsx': 9.5,
  'src/app/routes/admin/person-settings.tsx': 11.0,
  'src/app/routes/create/person/answers.tsx': 20.3,
  'src/app/routes/create/person/general.tsx': 25.0,
  'src/app/routes/create/person/layout.tsx': 32.1,
  'src/app/routes/create/person/settings.tsx': 22.7,
  'src/app/routes/create/user/general.tsx': 30.5,
  'src/app/routes/create/user/layout.tsx': 0.5,
  'src/app/routes/daily.tsx': 15.8,
  'src/app/routes/login.tsx': 2.5,
  'src/app/routes/me.tsx': 15.7,
  'src/app/routes/notes.tsx': 21.4,
  'src/app/routes/password.tsx': 7.4,
  'src/app/routes/person/daily.tsx': 14.7,
  'src/app/routes/person/layout.tsx': 7.4,
  'src/app/routes/person/notes.tsx': 21.2,
  'src/app/routes/person/person-loader.ts': 6.1,
  'src/app/routes/person/settings/access-log.tsx': 13.5,
  'src/app/routes/person/settings/answers.tsx': 13.8,
  'src/app/routes/person/settings/general.tsx': 31.3,
  'src/app/routes/person/settings/layout.tsx': 7.2,
  'src/app/routes/person/settings/notifications.tsx': 9.9,
  'src/app/routes/person/settings/overview.tsx': 9.6,
  'src/app/routes/person/settings/settings.tsx': 11.2,
  'src/app/routes/reset-password.tsx': 7.2,
  'src/app/routes/settings/answers.tsx': 12.1,
  'src/app/routes/settings/layout.tsx': 0.8,
  'src/app/routes/settings/notifications.tsx': 8.7,
  'src/app/routes/settings/persons.tsx': 9.3,
  'src/app/routes/settings/users.tsx': 28.9,
  'src/app/routes/statistics/layout.tsx': 0.5,
  'src/app/routes/statistics/statistics.tsx': 36.5,
}
/**
 * The signed-in shell (entry, app, shell layout and their static imports, JS gzip): 170.6 KB before issue
 * 33, 201.6 KB after issues 33 and 34 (zod and the location list's schema moved into it with the location
 * list in the query cache, React Query's shared core, the app split from /login's first load), 202.2 KB
 * with issue 34's start of a page's first reads and of Auth's restore while the code arrives (session
 * guard and prefetch orchestration, which serve every page; the reads' own code stays in a lazy chunk),
 * 202.21 KB measured with Statistik among those pages (its two paths in the guard's dispatch, 22
 * bytes; its reads' code in the lazy chunk), 202.49 KB with issue 36's live pages and offline banner
 * (the queries described once for both SDKs, the listeners' registry, the banner's Danish sentence and
 * the browser's online state; the full SDK and the listening code stay in a lazy chunk), 203.11 KB with
 * offline writes (ADR 0033: the Danish of the waiting and saved states, the longer offline banner, the
 * sign-out's check for writes still waiting, the device cache's owner), 203.46 KB with the app shell
 * (ADR 0034: the worker's registration, the start that restores the kept pages offline; the keeping
 * itself is a lazy chunk). The lazy chunks' names (content hashes) are in the shell's code, so a change
 * in a lazy chunk alone moves the shell by a few bytes: 203.51 KB after the kept pages' store learnt
 * to do without IndexedDB, with no byte of the shell's own code changed. 203.66 KB with a returning
 * start's read-ahead (issue 34: the page's first reads for the locations remembered, once the api has
 * confirmed the session, beside the profile's read). 203.80 KB when a page's or a form's code that could
 * not be fetched offline is said in Danish and fetched again once online (the error page's offline
 * case and two sentences of the messages; the form's own retry stays in the pages' chunk). 195.10 KB
 * once the toaster (sonner, 8.7 KB) comes after a page's start (lib/toast.ts). 179.49 KB with the
 * schemas written with zod/mini (ADR 0036: the schemas chunk 23.3 → 8.0 KB). The ceiling is the
 * measure plus 0.05 KB; it must not grow past that, so that no route shrinks by moving its code into
 * every page.
 */
export const SHELL_BUDGET_KB = 179.54
/**
 * A route as it loads (the shell, the route module's whole closure and zod's chunks outside the shell,
 * JS gzip) within the shell's ceiling plus its route's. The route ceilings leave zod's runtime out;
 * this check does not. A parent layout's route module is a route of its own here.
 */
export const pageBudgetKb = (route: string): number => SHELL_BUDGET_KB + (ROUTE_BUDGETS_KB[route] ?? 0)
/** The signed-in shell: what every page after sign-in loads before its own route code. */
export const SHELL_KEYS = ['index.html', 'src/app/app.tsx', 'src/app/routes/app-shell.tsx']
/**
 * What a signed-in page runs before its own route code: the shell, the session guard's loaders and the
 * page's early reads (app/prefetch.ts). Their JS files, at most START_FILES_MAX: each file is a request,
 * and over HTTP/1.1 a cold page waits for them six at a time (issue 34: 48 files before the `app` chunk
 * of web/vite.config.ts, 11 with it).
 */
export const START_KEYS = [
  ...SHELL_KEYS,
  'src/features/session/api/load-session-user.ts',
  'src/features/locations/api/get-locations.ts',
  'src/app/page-data.ts',
]
export const START_FILES_MAX = 11
/**
 * The live pages' listening code (lib/live.ts with the full Firestore SDK, issue 36), JS gzip beyond the
 * shell and Firestore Lite (both loaded by then): 130.8 KB with a memory cache; 157.3 KB with the
 * persistent cache (IndexedDB, shared by tabs) that keeps offline writes (ADR 0033). Fetched once a live
 * page has its data or a care write is made, never before. The full SDK's core (sync engine, watch and
 * write streams, WebChannel) does not tree-shake further; it is named, not taken whole (444 KB before
 * gzip, against 571 KB as a namespace import).
 */
export const LIVE_BUDGET_KB = 157.5
const LIVE_KEY = 'src/lib/live.ts'
/** A string only the full SDK carries (its warning when the backend cannot be reached). */
const FULL_SDK_MARKER = 'Could not reach Cloud Firestore backend'
const LITE_KEY = '../node_modules/firebase/firestore/lite/dist/esm/index.esm.js'
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

/**
 * Chunks that import each other, as `a → b → a` (none expected): a cycle runs one chunk's code before
 * the other's has been evaluated, which holds only as long as neither uses the other at load time.
 */
export function chunkCycles(manifest: Manifest): string[] {
  const cycles: string[] = []
  const done = new Set<string>()
  // Depth first, each chunk once: an import of a chunk still on the path closes a cycle.
  const visit = (key: string, path: string[]) => {
    for (const next of manifest[key]?.imports ?? []) {
      const at = path.indexOf(next)
      if (at !== -1) cycles.push([...path.slice(at), next].map((item) => manifest[item]?.file ?? item).join(' → '))
      else if (!done.has(next)) visit(next, [...path, next])
    }
    done.add(key)
  }
  for (const key of Object.keys(manifest)) if (!done.has(key)) visit(key, [key])
  return cycles.sort()
}

export function budgets(dist: string) {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Manifest
  const text = (file: string) => readFileSync(join(dist, file), 'utf8')
  // Each file gzipped once: the shell's files are part of every page.
  const gzipped = new Map<string, number>()
  const gz = (file: string) => {
    const known = gzipped.get(file)
    if (known !== undefined) return known
    const size = gzipSync(readFileSync(join(dist, file)), { level: 5 }).length
    gzipped.set(file, size)
    return size
  }
  const kb = (files: Iterable<string>) => [...files].reduce((sum, file) => sum + gz(file), 0) / 1024

  const login = [...closure(manifest, LOGIN_KEYS)].filter((file) => file.endsWith('.js'))
  const shell = closure(manifest, SHELL_KEYS)
  const routeKeys = Object.entries(manifest)
    .filter(
      ([key, entry]) => entry.isDynamicEntry === true && key.startsWith('src/app/routes/') && !SHELL_KEYS.includes(key),
    )
    .map(([key]) => key)
  const shellKb = kb([...shell].filter((file) => file.endsWith('.js')))
  // Per route, its JS beyond the shell: without zod's runtime (the route's ceiling), and with it on top
  // of the shell (the page as it loads).
  const measuredRoutes = routeKeys.map((route) => {
    const beyond = [...closure(manifest, [route])].filter((file) => file.endsWith('.js') && !shell.has(file))
    const own = kb(beyond.filter((file) => !text(file).includes('ZodError')))
    return [route, own, shellKb + kb(beyond)] as const
  })
  const routes = Object.fromEntries(measuredRoutes.map(([route, own]) => [route, own]))
  const pages = Object.fromEntries(measuredRoutes.map(([route, , page]) => [route, page]))
  const loginCarries = Object.entries(NOT_ON_LOGIN)
    .filter(([, marker]) => login.some((file) => text(file).toLowerCase().includes(marker.toLowerCase())))
    .map(([name]) => name)
  // A loader the shell imports statically is no chunk of its own (counted with the shell).
  const startKeys = START_KEYS.filter((key) => manifest[key] !== undefined)
  const startFiles = [...closure(manifest, startKeys)].filter((file) => file.endsWith('.js')).length
  const cycles = chunkCycles(manifest)
  // The listening code: its files beyond the shell and Lite, and whether a page's start or route code
  // (static imports) or /login carries any of it.
  const before = new Set([...shell, ...closure(manifest, [LITE_KEY])])
  const liveFiles = [...closure(manifest, [LIVE_KEY])].filter((file) => file.endsWith('.js') && !before.has(file))
  const eager = new Set([...login, ...closure(manifest, startKeys), ...closure(manifest, routeKeys)])
  // A small module the routes share with it (the write states) is no part of the SDK.
  const liveEager = liveFiles.filter((file) => eager.has(file) && text(file).includes(FULL_SDK_MARKER))
  return {
    loginKb: kb(login),
    loginFiles: login.length,
    loginCarries,
    routes,
    pages,
    shellKb,
    startFiles,
    cycles,
    liveKb: kb(liveFiles),
    liveEager,
  }
}
