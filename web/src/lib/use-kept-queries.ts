import { useEffect } from 'react'
import { whenIdle } from './when-idle.ts'

/**
 * While `userId` is signed in, their care pages are kept on the device for a start without a
 * connection (lib/kept-queries.ts, fetched once the page is idle: nothing of it is needed before).
 */
export function useKeptQueries(userId: string | null): void {
  useEffect(() => {
    if (userId === null) return
    let stop: (() => void) | null = null
    let isOn = true
    const start = () =>
      void import('./kept-queries.ts').then(
        ({ keepQueries }) => {
          if (isOn) stop = keepQueries(userId)
        },
        () => {},
      )
    const cancel = whenIdle(start, 5_000)
    return () => {
      isOn = false
      cancel()
      stop?.()
    }
  }, [userId])
}
