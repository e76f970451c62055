import type { AccessLogEntry, AccessLogPage } from '@bosted/domain/access-log'
import { expect, test, vi } from 'vitest'
import { defaultAccessLogFilter } from '../access-log-filter.ts'
import { getAllAccessLog } from './get-all-access-log.ts'

const entry = (seq: number) => ({ seq }) as AccessLogEntry
const page = (seqs: number[], nextPageToken: string | null): AccessLogPage => ({
  entries: seqs.map(entry),
  nextPageToken,
  actors: [],
})
const filter = defaultAccessLogFilter('2026-11-23')

test('the CSV gathers every page of the filter in order, 1000 entries a request', async () => {
  const getPage = vi.fn(async (_id: string, _filter: unknown, paging: { pageToken?: string | null }) =>
    paging.pageToken == null ? page([3, 2], 't1') : paging.pageToken === 't1' ? page([1], 't2') : page([], null),
  )
  const entries = await getAllAccessLog('p1', filter, getPage)
  expect(entries.map((e) => e.seq)).toEqual([3, 2, 1])
  expect(getPage.mock.calls.map((call) => call[2])).toEqual([
    { pageToken: null, pageSize: 1000 },
    { pageToken: 't1', pageSize: 1000 },
    { pageToken: 't2', pageSize: 1000 },
  ])
})

test('a token the api repeats ends the gathering instead of looping', async () => {
  const getPage = vi.fn(async () => page([1], 'same'))
  await getAllAccessLog('p1', filter, getPage)
  expect(getPage).toHaveBeenCalledTimes(2)
})
