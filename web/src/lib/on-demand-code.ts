import { useCallback, useEffect, useState } from 'react'

/** Code a page fetches when it is first needed (a form's own chunk), which may fail on a tablet's wifi. */
export type OnDemandCode<T> = {
  /** The code, once it has arrived. */
  readonly loaded: T | undefined
  /** Fetches it, once; after a failure the next call fetches it again. */
  load(): Promise<T>
}

export function onDemandCode<T>(fetchCode: () => Promise<T>): OnDemandCode<T> {
  let pending: Promise<T> | undefined
  let loaded: T | undefined
  return {
    get loaded() {
      return loaded
    },
    load() {
      pending ??= fetchCode().then(
        (code) => {
          loaded = code
          return code
        },
        (error: unknown) => {
          pending = undefined
          throw error
        },
      )
      return pending
    },
  }
}

export type OnDemandState<T> = {
  loaded: T | undefined
  /** The last fetch failed and none has succeeded since. */
  failed: boolean
  retry: () => void
}

/**
 * `code` once `isWanted`, fetched then if it has not arrived. A fetch that failed (the wifi dropped
 * before the code arrived, and the app shell's worker did not keep it yet) is tried again when the
 * browser is online again, or on `retry`: Chromium fetches a failed dynamic import anew.
 */
export function useOnDemandCode<T>(code: OnDemandCode<T>, isWanted: boolean): OnDemandState<T> {
  const [arrived, setArrived] = useState<{ code: T } | null>(null)
  const [failed, setFailed] = useState(false)
  const loaded = arrived?.code ?? code.loaded
  const fetchCode = useCallback(() => {
    code.load().then(
      (module) => {
        setArrived({ code: module })
        setFailed(false)
      },
      () => setFailed(true),
    )
  }, [code])

  useEffect(() => {
    if (isWanted && loaded === undefined) fetchCode()
  }, [isWanted, loaded, fetchCode])

  useEffect(() => {
    if (!failed) return
    window.addEventListener('online', fetchCode)
    return () => window.removeEventListener('online', fetchCode)
  }, [failed, fetchCode])

  return { loaded, failed: failed && loaded === undefined, retry: fetchCode }
}
