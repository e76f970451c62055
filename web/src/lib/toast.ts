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
  const rejected = (error: unknown) => failureMessage(error, messages.rejected)
  toast.promise(promise, { loading: messages.pending, success: messages.resolved, error: rejected })
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

export const showError = (message: string) => toast.error(message)
export const showSuccess = (message: string) => toast.success(message)
