import { paths, readsAheadLazily } from '../lib/paths.ts'

let prefetcher: (path: string) => void = () => {}
const done = new Set<string>()

/** The router registers how to fetch a path's route code (see router.tsx). */
export function setPrefetcher(fn: (path: string) => void): void {
  prefetcher = fn
}

/** Fetches the code of the route `path` renders, once per path. */
export function prefetch(path: string): void {
  if (done.has(path)) return
  done.add(path)
  prefetcher(path)
}

/**
 * The landing page's code, fetched while the sign-in request runs so that none of it waits for the
 * answer: the signed-in shell and /daily, the user and location loaders, Firestore Lite (the toaster
 * comes once the landing page has its data: lib/toast.ts).
 * (A person's account lands on "Min dag" instead; the shell and Firestore are the same.) The route
 * code comes through the router's prefetcher, registered once the router's module has loaded.
 */
export function preloadLanding(): void {
  prefetch(paths.daily)
  // The loaders and Firestore Lite's code.
  preloadSessionStart()
}

/**
 * What the session guard runs first on a signed-in visit — the user's loader (Firebase Auth, the
 * claims, Firestore Lite) and the location loader — fetched at the app's start beside its own code
 * and the configuration, not after them (main.tsx).
 */
export function preloadSessionStart(): void {
  import('../features/session/api/load-session-user.ts').catch(() => {})
  import('../features/locations/api/get-locations.ts').catch(() => {})
  import('./page-data.ts').catch(() => {})
  // The early reads of Dagbøger, Statistik and Administration start from a file of their own: asked
  // for now, not once the locations are known (a round trip before Statistik's read; issue 34).
  if (readsAheadLazily(location.pathname)) import('./page-data-lazy.ts').catch(() => {})
  // Firestore Lite's code, which the guard's first read needs: fetched now, not once Auth starts.
  import('firebase/firestore/lite').catch(() => {})
}

/**
 * With a session cookie, once the configuration is here: Firebase Auth restores its stored user
 * (reading it from IndexedDB and confirming it with Auth, a round trip) and Firestore Lite loads,
 * while the app's code is still arriving — the guard's first reads then need not wait for them.
 */
export function restoreAuthEarly(): void {
  import('../lib/firestore.ts').then((module) => module.getDb()).catch(() => {})
}
