import { da } from '@bosted/domain/messages/da'
import { data, type LoaderFunctionArgs } from 'react-router-dom'

/** The spec's not-found error: status 404, message 'Page Not Found: {path}'. */
export function notFound(pathname: string): ReturnType<typeof data<string>> {
  return data(da.errors.notFound(pathname), { status: 404, statusText: da.errors.notFoundTitle })
}

/** A route loader that rejects the page with a 404 unless its params pass `rule`. */
export function validateParams(rule: (params: LoaderFunctionArgs['params']) => boolean) {
  return ({ params, request }: LoaderFunctionArgs) => {
    if (!rule(params)) throw notFound(new URL(request.url).pathname)
    return null
  }
}

/** Firebase uids and Firestore ids as this app creates them: letters, digits, '-' and '_'. */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/
export const isId = (value: string | undefined): boolean => value !== undefined && ID_PATTERN.test(value)
