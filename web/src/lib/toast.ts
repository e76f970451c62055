import { da } from '@bosted/domain/messages/da'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useSyncExternalStore } from 'react'
import { onDemandCode } from './on-demand-code.ts'
import { whenQuiet } from './when-quiet.ts'

/**
 * sonner (33 KB of code, and a style sheet it adds as its module runs) is not part of a page's start
 * (issue 34): the root layout mounts the toaster once the signed-in page has its data (as the listening
 * code: lib/when-quiet.ts), or at the first toast, whichever comes first, and a toast waits for
 * sonner's code. sonner replays the toasts it holds to a toaster mounted after them. A tablet that
 * loses its wifi after that has it for the toasts of its offline writes.
 */
const sonner = onDemandCode(() => import('sonner'))
type Toast = Awaited<ReturnType<typeof sonner.load>>['toast']

let isToasterWanted = false
const listeners = new Set<() => void>()

/** Mounts the toaster (the root layout renders it from then on, on every page). */
export function wantToaster(): void {
  if (isToasterWanted) return
  isToasterWanted = true
  for (const listener of listeners) listener()
}

/** The signed-in shell's: the toaster once the page has its data and the browser an idle moment. */
export function useToasterOnceQuiet(): void {
  const client = useQueryClient()
  useEffect(() => {
    let isOn = true
    void whenQuiet(client).then(() => {
      if (isOn) wantToaster()
    })
    return () => {
      isOn = false
    }
  }, [client])
}

export function useToasterWanted(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    () => isToasterWanted,
  )
}

/** Shows a toast once sonner's code is here; fetched again when the tablet is back online if it failed. */
function withToast(show: (toast: Toast) => void): void {
  wantToaster()
  sonner.load().then(
    ({ toast }) => show(toast),
    () => window.addEventListener('online', () => withToast(show), { once: true }),
  )
}

export type PromiseMessages<T> = {
  pending: string
  resolved: string | ((value: T) => string)
  rejected: string | ((error: unknown) => string)
}

/**
 * A promise-style toast (REQ-FLOW-1): shown as pending, then replaced by the resolved or rejected
 * message. Returns the original promise so callers can still await it (and see its rejection).
 */
export function toastPromise<T>(promise: Promise<T>, messages: PromiseMessages<T>): Promise<T> {
  const rejected = (error: unknown) => failureMessage(error, messages.rejected)
  withToast((toast) => {
    toast.promise(promise, { loading: messages.pending, success: messages.resolved, error: rejected })
  })
  return promise
}

/** What a failed save says: a backend that stores nothing (a full disk) as such, else `message`. */
export function failureMessage(error: unknown, message: string | ((error: unknown) => string)): string {
  if (isStorageFull(error)) return da.shell.storageFull
  return typeof message === 'function' ? message(error) : message
}

/** Firestore's RESOURCE_EXHAUSTED (the web SDK's 'resource-exhausted') or the api's 507 `storage_full`. */
export function isStorageFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === 'resource-exhausted' || code === 'storage_full'
}

export const showError = (message: string) => withToast((toast) => toast.error(message))
export const showSuccess = (message: string) => withToast((toast) => toast.success(message))
