import { toast } from 'sonner'

export type PromiseMessages<T> = {
  pending: string
  resolved: string | ((value: T) => string)
  rejected: string | ((error: unknown) => string)
}

/**
 * A promise-style toast (SPEC §4): shown as pending, then replaced by the resolved or rejected
 * message. Returns the original promise so callers can still await it (and see its rejection).
 */
export function toastPromise<T>(promise: Promise<T>, messages: PromiseMessages<T>): Promise<T> {
  toast.promise(promise, { loading: messages.pending, success: messages.resolved, error: messages.rejected })
  return promise
}

export const showError = (message: string) => toast.error(message)
export const showSuccess = (message: string) => toast.success(message)
