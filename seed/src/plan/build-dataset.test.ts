import { expect, test } from 'vitest'
import { copenhagenTime, dayInCopenhagen, isDay } from '../lib/dates.ts'
import { buildDataset, type PlannedDoc } from './build-dataset.ts'

const TODAY = '2026-11-22'
const build = (today = TODAY) =>
  buildDataset({ today, downloadUrl: (path, token) => `http://storage/${path}?t=${token}` })
const ofKind = (docs: PlannedDoc[], kind: PlannedDoc['kind']) => docs.filter((doc) => doc.kind === kind)

test('the same day always gives the same dataset', () => {
  expect(JSON.stringify(build())).toBe(JSON.stringify(build()))
})

test('dates follow today: the newest registrations are from today, the oldest 89 days earlier', () => {
  for (const today of [TODAY, '2027-02-01']) {
    const days = ofKind(build(today).docs, 'registrations')
      .map((doc) => String(doc.data.day))
      .sort()
    expect(days.at(-1)).toBe(today)
    expect(days[0]).toBe(today === TODAY ? '2026-08-25' : '2026-11-04')
  }
})

test('staff and persons: three demo staff accounts and borger01@demo.dk upward, all with the demo password', () => {
  const { authUsers } = build()
  expect(authUsers.slice(0, 3).map((user) => user.email)).toEqual([
    'admin@demo.dk',
    'superbruger@demo.dk',
    'medarbejder@demo.dk',
  ])
  expect(authUsers[3]?.email).toBe('borger01@demo.dk')
  expect(new Set(authUsers.map((user) => user.password))).toEqual(new Set(['demo1234']))
  expect(new Set(authUsers.map((user) => user.email)).size).toBe(authUsers.length)
  expect(authUsers[0]?.customClaims).toEqual({ admin: true, userRole: 'admin' })
})

test('registrations point at answer options the person can use', () => {
  const { docs } = build()
  const answers = new Map(ofKind(docs, 'answers').map((doc) => [doc.path, doc.data]))
  const persons = new Map(ofKind(docs, 'persons').map((doc) => [String(doc.data.id), doc.data]))
  const locationOf = new Map(
    ofKind(docs, 'locations').flatMap((doc) => (doc.data.persons as string[]).map((id) => [id, String(doc.data.id)])),
  )
  for (const registration of ofKind(docs, 'registrations')) {
    const personId = registration.path.split('/')[1] as string
    const { answerId, entity, text, value } = registration.data
    const path =
      entity === 'location'
        ? `locations/${locationOf.get(personId)}/answers/${answerId}`
        : `persons/${personId}/answers/${answerId}`
    const answer = answers.get(path)
    expect(answer).toMatchObject({ text, value, hidden: false })
    if (entity === 'location') {
      const settings = persons.get(personId)?.settings as { includePlaceAnswers: boolean } | undefined
      expect(settings?.includePlaceAnswers).toBe(true)
    }
  }
})

test('values tell a story: the improving person is doing better lately than at the start', () => {
  const { docs } = build()
  const byPerson = new Map<string, { day: string; value: number }[]>()
  for (const doc of ofKind(docs, 'registrations')) {
    if (doc.data.entity !== 'location') continue
    const id = doc.path.split('/')[1] as string
    byPerson.set(id, [...(byPerson.get(id) ?? []), { day: String(doc.data.day), value: Number(doc.data.value) }])
  }
  const trends = [...byPerson.values()].map((values) => {
    const sorted = values.sort((a, b) => a.day.localeCompare(b.day))
    const mean = (part: typeof sorted) => part.reduce((sum, entry) => sum + entry.value, 0) / part.length
    return mean(sorted.slice(-20)) - mean(sorted.slice(0, 20))
  })
  expect(Math.max(...trends)).toBeGreaterThan(1)
  expect(Math.min(...trends)).toBeLessThan(-0.8)
})

test('a disabled person has no registrations after moving out', () => {
  const { docs } = build()
  const disabled = ofKind(docs, 'persons').filter((doc) => (doc.data.settings as { disabled: boolean }).disabled)
  expect(disabled.length).toBe(3)
  for (const person of disabled) {
    const days = ofKind(docs, 'registrations')
      .filter((doc) => doc.path.startsWith(`${person.path}/`))
      .map((doc) => String(doc.data.day))
      .sort()
    expect(days.at(-1)).toBe('2026-11-02')
    const notes = ofKind(docs, 'notes').filter((doc) => doc.path.startsWith(`${person.path}/`))
    expect(notes.map((doc) => String(doc.data.text)).at(-1)).toMatch(/^Sidste dag på .+ flytter i egen bolig/)
  }
})

test('Copenhagen wall-clock times become the right instants in winter and summer', () => {
  expect(copenhagenTime('2026-01-15', 8 * 60)).toBe('2026-01-15T07:00:00.000Z')
  expect(copenhagenTime('2026-07-15', 8 * 60)).toBe('2026-07-15T06:00:00.000Z')
  expect(dayInCopenhagen(new Date('2026-07-15T22:30:00.000Z'))).toBe('2026-07-16')
})

test('--today takes only real calendar days', () => {
  expect(['2026-03-29', '2028-02-29', '2026-12-31'].map(isDay)).toEqual([true, true, true])
  expect(['2026-02-30', '2027-02-29', '2026-13-01', '2026-00-10', '2026-3-29', '29-03-2026', ''].map(isDay)).toEqual(
    Array(7).fill(false),
  )
})

test('each person carries the location that lists it, and each care record its person and that location', () => {
  const { docs } = build()
  const locationOf = new Map<string, string>()
  for (const location of ofKind(docs, 'locations')) {
    for (const personId of location.data.persons as string[]) locationOf.set(personId, String(location.data.id))
  }
  const persons = ofKind(docs, 'persons')
  expect(persons.length).toBeGreaterThan(0)
  for (const person of persons) expect(person.data.locationId).toBe(locationOf.get(String(person.data.id)))
  for (const record of [...ofKind(docs, 'registrations'), ...ofKind(docs, 'notes')]) {
    const personId = record.path.split('/')[1] as string
    expect(record.data).toMatchObject({ personId, locationId: locationOf.get(personId) })
  }
})
