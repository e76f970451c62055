import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query'
import type { Written } from './live.ts'
import { reportError } from './report-error.ts'
import { failureMessage, showError, toastPromise } from './toast.ts'
import { within } from './within.ts'
import { markQueued, markRefused, markSaved } from './write-state.ts'

/**
 * Care writes that are kept on the device (docs/decisions/0033-offline-writes.md): a registration,
 * its correction and a diary entry go through the full SDK with its persistent cache. Once the write
 * is in that cache it is the SDK's to deliver, online now or when the connection is back.
 */

/** How long a write waits for the backend's acknowledgement before it is said to wait for a connection. */
export const ACK_WAIT_MS = 3_000

const liveCode = () => import('./live.ts')

/** A new document in `collectionPath` with an id made here, kept on the device before this resolves. */
export async function createKept(collectionPath: string, data: Record<string, unknown>): Promise<Written> {
  return (await liveCode()).createDocument(collectionPath, data)
}

/** Changes `fields` of the document at `path`, removing those in `removed`; kept as `createKept`. */
export async function updateKept(
  path: string,
  fields: Record<string, unknown>,
  removed: readonly string[] = [],
): Promise<Written> {
  return (await liveCode()).updateDocument(path, fields, removed)
}

export type Outcome = 'saved' | 'queued'

/**
 * `saved` when the backend acknowledges the write within `wait` (a refusal rejects), else `queued`:
 * at once when the browser is offline. A queued write shows as waiting until its acknowledgement.
 */
export async function savedOrQueued(written: Written, wait = ACK_WAIT_MS): Promise<Outcome> {
  const outcome: Outcome = navigator.onLine
    ? await within(
        written.acked.then((): Outcome => 'saved'),
        wait,
        'queued' as const,
      )
    : 'queued'
  if (outcome === 'queued') {
    markQueued(written.path)
    written.acked.then(
      () => markSaved(written.path),
      () => markRefused(written.path),
    )
  }
  return outcome
}

export type KeptMessages = { pending: string; saved: string; queued: string; failed: string }

/**
 * A mutation for a kept write, with its promise toast: saved, or kept until there is a connection
 * (it runs offline too). `queryKey`'s lists are read again once the backend has the write; a write
 * refused after it was queued is said in a toast, as one refused at once is.
 */
export function useKeptWrite<I>(
  write: (input: I) => Promise<Written>,
  messages: KeptMessages,
  queryKey: QueryKey,
  what: string,
) {
  const queryClient = useQueryClient()
  const refresh = () => queryClient.invalidateQueries({ queryKey })
  const report = reportError(what)
  return useMutation({
    networkMode: 'always',
    mutationFn: (input: I) =>
      toastPromise(
        write(input).then(async (written) => {
          const outcome = await savedOrQueued(written)
          if (outcome === 'queued') {
            written.acked.then(refresh, (error: unknown) => {
              showError(failureMessage(error, messages.failed))
              report(error)
            })
          }
          return outcome
        }),
        {
          pending: messages.pending,
          resolved: (outcome) => (outcome === 'saved' ? messages.saved : messages.queued),
          rejected: messages.failed,
        },
      ),
    onSuccess: (outcome) => (outcome === 'saved' ? refresh() : undefined),
    onError: (error) => {
      void refresh()
      report(error)
    },
  })
}
