import { hashKey, type QueryClient, type QueryKey, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { cacheOwner } from './device-cache.ts'
import type { Heard } from './live.ts'
import type { QuerySpec } from './query-spec.ts'
import { reportError } from './report-error.ts'
import { whenQuiet } from './when-quiet.ts'

/**
 * Live pages (docs/decisions/0032-live-pages.md): a page reads its data once with Firestore Lite, as
 * every page does, and while it shows that data a listener keeps the cache entry current, so a
 * colleague's registration, correction or diary entry appears without a reload.
 *
 * One listener per cache entry, however many components show it. Its snapshots write the entry, and
 * `liveOr` keeps a read that was out meanwhile from writing over them with an older answer.
 */
type Listener = {
  users: number
  /** How many snapshots it has heard from the server, and the data the last one made. */
  heard: number
  latest: { data: unknown } | null
  stop: Promise<(() => void) | null>
}

const listeners = new Map<string, Listener>()

/**
 * The listening code with the full SDK, fetched when the first listener opens (never at sign-in), and
 * not before the page is quiet: its 157 KB would otherwise share the tablet's wifi and CPU with the
 * page's own reads and first render. Also offline: the app shell keeps it (ADR 0034), and its cache
 * holds the writes still waiting, which the page then shows (ADR 0033).
 */
let live: Promise<typeof import('./live.ts')> | null = null
const loadLive = (client: QueryClient) => {
  if (live === null) {
    const loading = whenQuiet(client).then(importLive)
    // A chunk that could not be fetched (offline, a new build) is asked for again by the next listener.
    loading.catch(() => {
      if (live === loading) live = null
    })
    live = loading
  }
  return live
}

/** The listening code; without a network and not kept by the app shell, once the network is back. */
function importLive(): Promise<typeof import('./live.ts')> {
  return import('./live.ts').catch((error: unknown) => {
    if (navigator.onLine) throw error
    return new Promise<void>((resolve) => window.addEventListener('online', () => resolve(), { once: true })).then(
      importLive,
    )
  })
}

/**
 * At sign-out: every listener ends, and the device's cache is cleared if there is one (a page listened
 * or wrote, in this tab or before a reload). The listening code is fetched for that only then.
 */
export async function endLive(): Promise<void> {
  const loaded = await (live ?? (cacheOwner() === null ? null : import('./live.ts')))?.catch(() => null)
  await loaded?.endLive()
}

/**
 * What `read` returns, unless the query's listener heard from the server while the read was out: then
 * the listener's data, which is as new or newer. A read still runs when a listener holds (a write's
 * invalidation, a window's focus), so the user's own write shows once saved even if a listener falls
 * behind; it only never replaces a newer snapshot with an older answer.
 */
export async function liveOr<T>(queryKey: QueryKey, read: () => Promise<T>): Promise<T> {
  const hash = hashKey(queryKey)
  const before = listeners.get(hash)
  const heardBefore = before?.heard ?? 0
  const fetched = await read()
  const after = listeners.get(hash)
  return after?.latest && (after !== before || after.heard > heardBefore) ? (after.latest.data as T) : fetched
}

type Attach = {
  client: QueryClient
  queryKey: QueryKey
  spec: QuerySpec
  /** Called with every snapshot; returns the entry's new data, or undefined to leave the entry alone. */
  onHeard: (heard: Heard) => { data: unknown } | undefined
}

function attach({ client, queryKey, spec, onHeard }: Attach): () => void {
  const hash = hashKey(queryKey)
  let listener = listeners.get(hash)
  if (listener === undefined) {
    const own: Listener = { users: 0, heard: 0, latest: null, stop: Promise.resolve(null) }
    const drop = (error: unknown) => {
      reportError('a live listener ended')(error)
      if (listeners.get(hash) === own) listeners.delete(hash)
      return null
    }
    own.stop = loadLive(client)
      .then(({ listen }) =>
        listen(
          spec,
          (heard) => {
            const next = onHeard(heard)
            if (next === undefined) return
            own.heard += 1
            own.latest = next
            client.setQueryData(queryKey, next.data)
          },
          drop,
        ),
      )
      .catch(drop)
    listeners.set(hash, own)
    listener = own
  }
  listener.users += 1
  const held = listener
  return () => {
    held.users -= 1
    if (held.users > 0) return
    if (listeners.get(hash) === held) listeners.delete(hash)
    void held.stop.then((stop) => stop?.())
  }
}

/**
 * Keeps the query `queryKey` current from a listener on `spec`, the data made from the documents by
 * `shape`, as the query's own read makes it; the query's function reads through `liveOr`. `spec` is
 * null until the query has its first data: the page shows what Firestore Lite read first.
 */
export function useLiveQuery<T>(queryKey: QueryKey, spec: QuerySpec | null, shape: (heard: Heard) => T): void {
  useListener(queryKey, spec, (heard) => ({ data: shape(heard) }))
}

/**
 * For a list read page by page (Dagbøger): a listener on its first page, and each change the server
 * reports after the first snapshot reads the loaded pages again (a new entry moves every page's edges).
 * A snapshot from the device's cache (the user's own write, offline) cannot be read again from the
 * server: `onCached` puts its documents in the list instead.
 */
export function useLiveRefetch(queryKey: QueryKey, spec: QuerySpec | null, onCached: (heard: Heard) => void): void {
  const client = useQueryClient()
  useListener(['live-refetch', ...queryKey], spec, (heard) => {
    if (heard.fromCache) onCached(heard)
    else if (!heard.isFirst) void client.invalidateQueries({ queryKey, exact: true })
    return undefined
  })
}

/** A listener on `spec` under `queryKey` while the component shows it (and `spec` is not null). */
function useListener(queryKey: QueryKey, spec: QuerySpec | null, onHeard: Attach['onHeard']): void {
  const client = useQueryClient()
  const latest = useRef({ spec, onHeard })
  latest.current = { spec, onHeard }
  const hash = hashKey(queryKey)
  const isOn = spec !== null
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key's hash names the query; spec and onHeard follow from it
  useEffect(() => {
    const current = latest.current.spec
    if (current === null) return
    return attach({ client, queryKey, spec: current, onHeard: (heard) => latest.current.onHeard(heard) })
  }, [client, hash, isOn])
}
