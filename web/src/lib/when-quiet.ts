import type { QueryClient } from '@tanstack/react-query'
import { whenIdle } from './when-idle.ts'

/**
 * Resolves once no query is being read and the browser has had an idle moment (at most 2 s later):
 * a page has its data and has shown it. What is not needed before then (the listening code, the
 * toaster) starts here, not beside the page's own reads and first render.
 */
export function whenQuiet(client: QueryClient): Promise<void> {
  return new Promise((resolve) => {
    const idle = () => {
      whenIdle(resolve, 2_000)
    }
    if (client.isFetching() === 0) return idle()
    const unsubscribe = client.getQueryCache().subscribe(() => {
      if (client.isFetching() > 0) return
      unsubscribe()
      idle()
    })
  })
}
