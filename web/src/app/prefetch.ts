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
