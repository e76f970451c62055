import type { LoaderFunctionArgs } from 'react-router-dom'
import { personQueryOptions } from '../../../features/persons/api/get-person.ts'
import { fetchQuery } from '../../../lib/query-client.ts'
import { isId, notFound } from '../../../lib/route-errors.ts'
import { restoredSessionUser } from '../../session.ts'

/**
 * The /person/{id} route's validation: a malformed id, a person that does not exist or one the
 * user may not read (the rules deny it) is a 404 'Page Not Found: {path}' (REQ-ERROR-1). The person
 * stays in the query cache for the layout and its pages.
 */
export async function personLoader({ params, request }: LoaderFunctionArgs): Promise<null> {
  const id = params.id ?? ''
  const pathname = new URL(request.url).pathname
  if (!isId(id)) throw notFound(pathname)
  // Loaders run alongside the shell's session guard: without a session it sends the user to
  // /login, and the person is not read (an anonymous read would only be denied).
  const user = await restoredSessionUser()
  // A person (borger) is sent to "Min dag" by the session guard: no read of someone else's record.
  if (user === null || user.kind === 'person') return null
  const person = await fetchQuery(personQueryOptions(id))
  if (person === null) throw notFound(pathname)
  // Read and allowed: the tab's first reads start now, beside the rest of the route (issue 34).
  void import('../../page-data.ts').then(
    (module) => module.prefetchPersonPageData(new URL(request.url), id),
    () => {},
  )
  return null
}
