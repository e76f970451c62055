import type { QueryKey } from '@tanstack/react-query'
import { createStore, del, get, set } from 'idb-keyval'
import { queryClient as client } from './query-client.ts'
import type { QueryRoot } from './query-roots.ts'
import { reportError } from './report-error.ts'

/**
 * The care pages as last read, kept on the device for a start without a connection
 * (docs/decisions/0034-app-shell.md): with the app shell's files, a reload offline shows the
 * Dagsoversigt, a person's pages, Dagbøger and Min dag as they were, and the writes still waiting
 * (which the full SDK's cache holds, ADR 0033). Cleared at sign-out; never shown to another user.
 */

/** The pages' data that is kept: what the care pages read, not the administration's or Statistik's. */
const KEPT_ROOTS: ReadonlySet<string> = new Set<QueryRoot>([
  'locations',
  'persons',
  'registrations',
  'notes',
  'answers',
  'staff',
])
/** After a read, the data is kept this much later, at most once per this long. */
const SAVE_AFTER_MS = 2_000
/** Restored data counts as fresh until the connection is back: no read waits on a network there is none of. */
const FRESH_UNTIL_ONLINE = Number.MAX_SAFE_INTEGER

/** A query as kept: its key and data (the cache's own dehydrate would put its code in every page's start). */
type KeptQuery = { queryKey: QueryKey; data: unknown }
type Kept = { owner: string; savedAt: number; queries: KeptQuery[] }

const KEY = 'queries'
let store: ReturnType<typeof createStore> | null = null
const report = reportError('the pages could not be kept on the device')
/**
 * One use of the device's store. A device without IndexedDB (a private window, a browser that
 * refuses it) throws at once rather than rejecting; either way the pages go on, only not kept.
 */
async function withStore<T>(use: (db: ReturnType<typeof createStore>) => Promise<T>): Promise<T | undefined> {
  try {
    store ??= createStore('bosted-pages', 'kept')
    return await use(store)
  } catch (error) {
    report(error)
    return undefined
  }
}

let stopKeeping: (() => void) | null = null

/** Keeps `owner`'s care pages (the app's one query cache) on the device, a moment after each read, until the returned stop. */
export function keepQueries(owner: string): () => void {
  stopKeeping?.()
  let timer: ReturnType<typeof setTimeout> | undefined
  const save = () => {
    timer = undefined
    const queries = client
      .getQueryCache()
      .findAll({ predicate: (query) => query.state.status === 'success' && KEPT_ROOTS.has(String(query.queryKey[0])) })
      .map((query): KeptQuery => ({ queryKey: query.queryKey, data: query.state.data }))
    void withStore((db) => set(KEY, { owner, savedAt: Date.now(), queries } satisfies Kept, db))
  }
  const unsubscribe = client.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success' || timer !== undefined) return
    timer = setTimeout(save, SAVE_AFTER_MS)
  })
  const stop = () => {
    unsubscribe()
    clearTimeout(timer)
    if (stopKeeping === stop) stopKeeping = null
  }
  stopKeeping = stop
  return stop
}

/**
 * At a start without a connection: `owner`'s pages as last kept, fresh until the connection is back,
 * then all read again. False when nothing of theirs is kept.
 */
export async function restoreQueries(owner: string): Promise<boolean> {
  const kept = await withStore((db) => get<Kept>(KEY, db))
  if (kept === undefined || kept.owner !== owner) return false
  for (const { queryKey, data } of kept.queries) client.setQueryData(queryKey, data, { updatedAt: FRESH_UNTIL_ONLINE })
  window.addEventListener('online', () => void client.invalidateQueries(), { once: true })
  return true
}

/** At sign-out: nothing of the session's pages stays on the device. Never rejects (a failure is reported). */
export async function forgetQueries(): Promise<void> {
  stopKeeping?.()
  await withStore((db) => del(KEY, db))
}
