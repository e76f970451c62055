/**
 * The app shell's service worker, as functions of the browser's caches and network
 * (docs/decisions/0034-app-shell.md): `sw.ts` wires them to the worker's events. One build's files
 * are kept in a cache of their own, so a page only ever runs one build's code.
 */
import { within } from '../src/lib/within.ts'

/** One build: its version (build time, then a hash of its file names: newer sorts later) and its files. */
export type Build = { version: string; files: readonly string[] }

/** The network, as the worker asks it. */
export type Fetch = (request: Request) => Promise<Response>

export const SHELL_PREFIX = 'bosted-shell-'
/**
 * The builds kept whole, one entry each (`/<version>`), written once a build's install is complete.
 * Only they are read: the browser queues a read of a cache behind a fill of it, so a cache still
 * being filled (without a network, for as long as the fill takes) is never asked.
 */
export const BUILDS_CACHE = 'bosted-builds'
/** The runtime configuration as last read (/config.json: where Auth, Firestore and Storage are). */
export const RUNTIME_CACHE = 'bosted-runtime'
/** Builds kept: this one, and the one before it for a page still open on it (its lazy chunks). */
export const KEEP_BUILDS = 2
/** How long a page load waits for the network before the kept shell opens instead. */
export const NAVIGATION_TIMEOUT_MS = 4_000

export const shellCache = (build: Build): string => `${SHELL_PREFIX}${build.version}`

/** Install: every file of the build, or none (`addAll` keeps nothing when one fails); then it counts as whole. */
export async function precache(caches: CacheStorage, build: Build): Promise<void> {
  const cache = await caches.open(shellCache(build))
  // Revalidated with the server, so the build's own index.html and manifest are kept, not a copy the
  // HTTP cache still held from the build before.
  await cache.addAll(build.files.map((file) => new Request(file, { cache: 'no-cache' })))
  await (await caches.open(BUILDS_CACHE)).put(`/${build.version}`, new Response(''))
  forgetKnownBuilds()
}

/** The caches of the builds kept whole, newest first. */
async function wholeBuilds(caches: CacheStorage): Promise<string[]> {
  const marks = await (await caches.open(BUILDS_CACHE)).keys()
  return marks
    .map((mark) => `${SHELL_PREFIX}${new URL(mark.url).pathname.slice(1)}`)
    .sort()
    .reverse()
}

/**
 * The builds kept whole as this worker last read them: read once, and again after it keeps or prunes
 * a build, so a page's files are one cache lookup each. Another worker's later build is not in it:
 * this worker's pages run on the builds it knows.
 */
let known: { caches: CacheStorage; builds: Promise<string[]> } | null = null
function knownBuilds(caches: CacheStorage): Promise<string[]> {
  if (known?.caches !== caches) {
    const builds = wholeBuilds(caches)
    known = { caches, builds }
    builds.catch(() => {
      if (known?.builds === builds) known = null
    })
  }
  return known.builds
}
const forgetKnownBuilds = () => {
  known = null
}

/** Activate: the builds older than the KEEP_BUILDS newest whole ones go, and any cut short. */
export async function pruneBuilds(caches: CacheStorage, build: Build): Promise<void> {
  const own = shellCache(build)
  const kept = new Set([own, ...(await wholeBuilds(caches)).filter((name) => name !== own).slice(0, KEEP_BUILDS - 1)])
  const marks = await caches.open(BUILDS_CACHE)
  const gone = (await caches.keys()).filter((name) => name.startsWith(SHELL_PREFIX) && !kept.has(name))
  await Promise.all(
    gone.map(async (name) => {
      await marks.delete(`/${name.slice(SHELL_PREFIX.length)}`)
      await caches.delete(name)
    }),
  )
  forgetKnownBuilds()
}

/** What the worker does with a request: a page load, the configuration, a kept file, or nothing. */
export type Route = 'page' | 'config' | 'file' | null

/** Only the app's own GETs: the api, Firestore, Auth and Storage go to the network untouched. */
export function routeOf(request: Request, origin: string, build: Build): Route {
  if (request.method !== 'GET') return null
  const url = new URL(request.url)
  if (url.origin !== origin) return null
  if (request.mode === 'navigate') return isAppPath(url.pathname) ? 'page' : null
  if (url.pathname === '/config.json') return 'config'
  if (url.pathname.startsWith('/assets/') || build.files.includes(url.pathname)) return 'file'
  return null
}

/** The paths the app's router shows (the api and the backends' paths on a pilot's origin are not). */
function isAppPath(path: string): boolean {
  return !/^\/(api|v1|v0|google\.|identitytoolkit|securetoken|__)/.test(path)
}

/** A kept file from any build kept whole (a page open on the build before still finds its chunks), else the network. */
export async function keptFile(caches: CacheStorage, request: Request, fetch: Fetch) {
  // Looked up by name: a build pruned since is no answer (opening it would make it anew, empty).
  for (const cacheName of await knownBuilds(caches)) {
    const found = await caches.match(request, { cacheName, ignoreSearch: true })
    if (found !== undefined) return found
  }
  return fetch(request)
}

/** At install: the configuration as the server has it now (the first page read it before the worker ran). */
export async function keepConfiguration(caches: CacheStorage, fetch: Fetch): Promise<void> {
  const request = new Request('/config.json', { cache: 'no-cache' })
  const response = await fetch(request).catch(() => null)
  if (response?.ok) await (await caches.open(RUNTIME_CACHE)).put('/config.json', response)
}

/** The configuration from the network, kept for the next start without one; offline, as last kept. */
export async function configuration(caches: CacheStorage, request: Request, fetch: Fetch) {
  const cache = await caches.open(RUNTIME_CACHE)
  try {
    const response = await fetch(request)
    if (response.ok) await cache.put(request, response.clone())
    return response
  } catch (error) {
    const kept = await cache.match(request, { ignoreSearch: true })
    if (kept !== undefined) return kept
    throw error
  }
}

/**
 * A page load: the network's index.html (a new build starts with it, and its files come from the
 * network too), or after NAVIGATION_TIMEOUT_MS or a failure the newest kept build's: the app opens
 * without a connection, all of one build.
 */
export async function page(
  caches: CacheStorage,
  request: Request,
  fetch: Fetch,
  timeoutMs = NAVIGATION_TIMEOUT_MS,
): Promise<Response> {
  const network = fetch(request)
  // Read only when the network does not answer: an online load touches no cache.
  const kept = () => newestShellPage(caches)
  try {
    const first = await within(network, timeoutMs, 'late' as const)
    if (first !== 'late') return first
    return (await kept()) ?? (await network)
  } catch (error) {
    const shell = await kept()
    if (shell !== undefined) return shell
    throw error
  }
}

/** index.html of the newest build kept whole. */
async function newestShellPage(caches: CacheStorage): Promise<Response | undefined> {
  const [newest] = await wholeBuilds(caches)
  return newest === undefined ? undefined : (await caches.open(newest)).match('/index.html')
}
