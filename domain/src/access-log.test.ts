import { expect, test } from 'vitest'
import { type AccessLogEntry, AccessLogQuerySchema, describeAccess, formatAccessTime } from './access-log.ts'
import { daAccessLog } from './messages/da-access-log.ts'

const entry = (over: Partial<AccessLogEntry>): AccessLogEntry => ({
  seq: 1,
  timestamp: '2026-11-23T07:14:00.000Z',
  personId: 'p1',
  principal: { uid: 'u1', email: 'birgitte@demo.dk', name: 'Birgitte Holm', role: 'employee' },
  operation: 'list',
  resource: 'notes',
  resourceName: 'persons/p1/notes',
  count: 12,
  callerIp: '127.0.0.1',
  ...over,
})

test("an entry reads as the issue's Danish sentence, with Copenhagen time", () => {
  const first = entry({})
  expect(`${describeAccess(first, daAccessLog)} · ${formatAccessTime(first.timestamp)}`).toBe(
    'Birgitte Holm (medarbejder) læste 12 dagbogsnotater · 23.11.2026 08:14',
  )
  // Summer time: 07:14 UTC is 09:14 in Copenhagen.
  expect(formatAccessTime('2026-07-01T07:14:00.000Z')).toBe('01.07.2026 09:14')
})

test('every operation and kind of data has its words; one of a kind is singular', () => {
  const say = (over: Partial<AccessLogEntry>) => describeAccess(entry(over), daAccessLog)
  expect(say({ count: 1 })).toBe('Birgitte Holm (medarbejder) læste 1 dagbogsnotat')
  expect(say({ operation: 'get', resource: 'person', count: 1 })).toBe(
    'Birgitte Holm (medarbejder) læste borgerens oplysninger',
  )
  expect(say({ operation: 'create', resource: 'registrations', count: 1 })).toBe(
    'Birgitte Holm (medarbejder) oprettede 1 registrering',
  )
  expect(say({ operation: 'update', resource: 'answers', count: 3 })).toBe(
    'Birgitte Holm (medarbejder) ændrede 3 svarmuligheder',
  )
  expect(say({ operation: 'delete', resource: 'avatar', count: 1 })).toBe(
    'Birgitte Holm (medarbejder) slettede borgerens billede',
  )
  expect(say({ operation: 'export', resource: 'export' })).toBe(
    'Birgitte Holm (medarbejder) eksporterede borgerens data',
  )
  expect(say({ operation: 'viewLog', resource: 'accessLog' })).toBe('Birgitte Holm (medarbejder) åbnede adgangsloggen')
  expect(
    say({ principal: { uid: 'p1', email: null, name: 'Åse Nørgård', role: 'person' }, resource: 'registrations' }),
  ).toBe('Åse Nørgård (borger) læste 12 registreringer')
  expect(
    say({ principal: { uid: null, email: null, name: null, role: 'unknown' }, operation: 'get', resource: 'avatar' }),
  ).toBe('Ukendt bruger (ukendt rolle) læste borgerens billede')
  expect(say({ principal: { uid: 'x', email: 'x@demo.dk', name: null, role: 'superuser' } })).toBe(
    'x@demo.dk (superbruger) læste 12 dagbogsnotater',
  )
})

test('the viewer query: real days, known operations, a bounded page', () => {
  expect(AccessLogQuerySchema.parse({})).toEqual({ pageSize: 50 })
  expect(AccessLogQuerySchema.safeParse({ from: '2026-02-30' }).success).toBe(false)
  expect(AccessLogQuerySchema.safeParse({ operation: 'rewrite' }).success).toBe(false)
  expect(AccessLogQuerySchema.safeParse({ pageSize: '1001' }).success).toBe(false)
  expect(AccessLogQuerySchema.parse({ pageSize: '1000', from: '2026-11-01' })).toEqual({
    pageSize: 1000,
    from: '2026-11-01',
  })
})
