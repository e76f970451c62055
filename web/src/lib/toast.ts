import { da } from '@bosted/domain/messages/da'
import { toast } from 'sonner'

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
  const rejected = (error: unknown) =>
    // Whatever was being saved: a backend that stores nothing (a full disk) is said as such.
    isStorageFull(error)
      ? da.shell.storageFull
      : typeof messages.rejected === 'function'
        ? messages.rejected(error)
        : messages.rejected
  toast.promise(promise, { loading: messages.pending, success: messages.resolved, error: rejected })
  return promise
}

/** Firestore's RESOURCE_EXHAUSTED (the web SDK's 'resource-exhausted') or the api's 507 `storage_full`. */
export function isStorageFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === 'resource-exhausted' || code === 'storage_full'
}

export const showError = (message: string) => toast.error(message)
export const showSuccess = (message: string) => toast.success(message)
