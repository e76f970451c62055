import type { AccessLogEntry } from '@bosted/domain/access-log'
import { type AccessLogFilter, CSV_PAGE_SIZE } from '../access-log-filter.ts'
import { getAccessLog } from './get-access-log.ts'

/** Every entry of the filter, page after page (for the CSV); stops if the api repeats a token. */
export async function getAllAccessLog(
  personId: string,
  filter: AccessLogFilter,
  getPage: typeof getAccessLog = getAccessLog,
): Promise<AccessLogEntry[]> {
  const entries: AccessLogEntry[] = []
  const seen = new Set<string>()
  let pageToken: string | null = null
  do {
    const page = await getPage(personId, filter, { pageToken, pageSize: CSV_PAGE_SIZE })
    entries.push(...page.entries)
    pageToken = page.nextPageToken
    if (pageToken !== null) {
      if (seen.has(pageToken)) break
      seen.add(pageToken)
    }
  } while (pageToken !== null)
  return entries
}
