import { paths } from '../lib/paths.ts'

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
 * answer: the signed-in shell and /daily, the user and location loaders, Firestore Lite, the toaster.
 * (A person's account lands on "Min dag" instead; the shell and Firestore are the same.) The route
 * code comes through the router's prefetcher, registered once the router's module has loaded.
 */
export function preloadLanding(): void {
  prefetch(paths.daily)
  const ignore = () => {}
  import('../features/session/api/load-session-user.ts').catch(ignore)
  import('../features/locations/api/get-locations.ts').catch(ignore)
  import('../lib/firestore.ts').then((module) => module.firestoreLite()).catch(ignore)
  import('../components/ui/toaster.tsx').catch(ignore)
}
