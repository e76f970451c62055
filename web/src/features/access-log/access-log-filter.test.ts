import { expect, test } from 'vitest'
import {
  accessLogFilterParams,
  accessLogQueryString,
  defaultAccessLogFilter,
  parseAccessLogFilter,
  submittedAccessLogFilter,
} from './access-log-filter.ts'

const TODAY = '2026-11-23'

test('without filters the log shows the last 30 days ending today, everyone and every operation', () => {
  expect(parseAccessLogFilter(new URLSearchParams(), TODAY)).toEqual({
    from: '2026-10-25',
    to: '2026-11-23',
    actor: '',
    operation: '',
  })
})

test('the period counts Copenhagen calendar days across the change from summer time', () => {
  expect(defaultAccessLogFilter('2026-11-05').from).toBe('2026-10-07')
})

test('the URL sets the period, the staff member and the operation', () => {
  const params = new URLSearchParams('from=2026-11-01&to=2026-11-10&actor=demo-medarbejder&operation=list')
  expect(parseAccessLogFilter(params, TODAY)).toEqual({
    from: '2026-11-01',
    to: '2026-11-10',
    actor: 'demo-medarbejder',
    operation: 'list',
  })
})

test('a reversed period is turned round, and unreadable days and operations keep their defaults', () => {
  expect(parseAccessLogFilter(new URLSearchParams('from=2026-11-10&to=2026-11-01'), TODAY)).toMatchObject({
    from: '2026-11-01',
    to: '2026-11-10',
  })
  expect(parseAccessLogFilter(new URLSearchParams('from=2026-02-30&operation=drop'), TODAY)).toEqual(
    defaultAccessLogFilter(TODAY),
  )
})

test('the URL form leaves the defaults out and reads back to the same filter', () => {
  expect(accessLogFilterParams(defaultAccessLogFilter(TODAY), TODAY).toString()).toBe('')
  const filter = { from: '2026-11-01', to: '2026-11-10', actor: 'demo-admin', operation: 'export' as const }
  const params = accessLogFilterParams(filter, TODAY)
  expect(params.toString()).toBe('from=2026-11-01&to=2026-11-10&actor=demo-admin&operation=export')
  expect(parseAccessLogFilter(params, TODAY)).toEqual(filter)
})

test("the api's query string carries the filter, the page token and the page size", () => {
  const filter = { from: '2026-10-25', to: '2026-11-23', actor: '', operation: '' as const }
  expect(accessLogQueryString(filter, { pageSize: 50 })).toBe('from=2026-10-25&to=2026-11-23&pageSize=50')
  expect(
    accessLogQueryString(
      { ...filter, actor: 'demo-medarbejder', operation: 'get' },
      { pageToken: 'abc/=+', pageSize: 1000 },
    ),
  ).toBe('from=2026-10-25&to=2026-11-23&actor=demo-medarbejder&operation=get&pageToken=abc%2F%3D%2B&pageSize=1000')
})

test("the submitted filter is parsed with the api's query schema: a reversed period is turned round", () => {
  expect(submittedAccessLogFilter({ from: '2026-11-20', to: '2026-11-01', actor: 'u1', operation: 'get' })).toEqual({
    from: '2026-11-01',
    to: '2026-11-20',
    actor: 'u1',
    operation: 'get',
  })
  expect(submittedAccessLogFilter({ from: '2026-11-01', to: '2026-11-20', actor: '', operation: '' })).toEqual({
    from: '2026-11-01',
    to: '2026-11-20',
    actor: '',
    operation: '',
  })
})

test('a submitted value the api would refuse is not applied', () => {
  expect(
    submittedAccessLogFilter({ from: '2026-11-01', to: '2026-11-20', actor: 'x'.repeat(129), operation: '' }),
  ).toBeNull()
  expect(submittedAccessLogFilter({ from: 'i går', to: '2026-11-20', actor: '', operation: '' })).toBeNull()
})
