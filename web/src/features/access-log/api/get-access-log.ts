import { type AccessLogPage, AccessLogPageSchema } from '@bosted/domain/access-log'
import { api } from '../../../lib/api-client.ts'
import { type AccessLogFilter, accessLogQueryString } from '../access-log-filter.ts'

/**
 * One page of a person's access log, newest first (admins, and superusers of the person's location;
 * the api answers 403 to anyone else). A first page (no token) is itself logged by the api.
 */
export async function getAccessLog(
  personId: string,
  filter: AccessLogFilter,
  paging: { pageToken?: string | null; pageSize: number },
): Promise<AccessLogPage> {
  const body = await api(
    `/person/${encodeURIComponent(personId)}/access-log?${accessLogQueryString(filter, paging)}`,
    AccessLogPageSchema,
  )
  return body.data
}
