import { useEffect } from 'react'

/**
 * What a failure is called in a warning: its code (Firebase, the api) or else its name. Never its
 * message or stack, which may carry a person's data into the browser console.
 */
export function errorLabel(error: unknown): string {
  if (typeof error !== 'object' || error === null) return typeof error
  const { code, name } = error as { code?: unknown; name?: unknown }
  if (typeof code === 'string' && code !== '') return code
  return typeof name === 'string' ? name : 'Error'
}

/**
 * The one way a failure the user has already been told about (toast, notice) is logged for
 * whoever debugs: `onError: reportError('a location could not be updated')`, or `.catch(reportError(…))`.
 */
export function reportError(context: string): (error: unknown) => void {
  return (error) => console.warn(context, errorLabel(error))
}

/** Logs `error` once each time it changes to a failure (a query's `error`); `null`/`undefined` log nothing. */
export function useReportError(context: string, error: unknown): void {
  useEffect(() => {
    if (error !== null && error !== undefined) reportError(context)(error)
  }, [context, error])
}
