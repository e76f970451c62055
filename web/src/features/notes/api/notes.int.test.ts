import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { AT, CARE_WORLD, DAY, staff, startCareEmulator } from '../../../test/care-emulator.ts'
import { current, stored } from '../../../test/use-db.ts'
import { correctNote } from './correct-note.ts'
import { createNote } from './create-note.ts'
import { deleteNote } from './delete-note.ts'
import { getNotesPage } from './get-notes-page.ts'
import type { NotesQuery } from './notes-query.ts'

vi.mock('../../../lib/firestore.ts', async () => (await import('../../../test/use-db.ts')).firestoreModule)
vi.mock('../../../lib/kept-writes.ts', async (importActual) =>
  (await import('../../../test/use-db.ts')).keptModule(await importActual()),
)

let world: {
  emulator: Awaited<ReturnType<typeof startCareEmulator>>
  emp: typeof current.db
  emp2: typeof current.db
  sup: typeof current.db
}
beforeAll(async () => {
  const emulator = await startCareEmulator({ ...CARE_WORLD, 'users/sup': staff('sup', ['L1'], 'superuser') })
  world = {
    emulator,
    emp: await emulator.signIn('emp', { userRole: 'employee' }),
    emp2: await emulator.signIn('emp2', { userRole: 'employee' }),
    sup: await emulator.signIn('sup', { userRole: 'superuser' }),
  }
})
afterAll(async () => {
  await world?.emulator.close()
})

const page = (query: Partial<NotesQuery>) =>
  getNotesPage({ locationId: 'L1', personIds: [], from: '2026-11-01', to: DAY, after: null, limit: 25, ...query })

test("an employee reads their location's diary newest first, one person's or several, in pages by cursor", async () => {
  current.db = world.emp
  const all = await page({})
  expect(all.notes.map((note) => [note.id, note.day])).toEqual([
    ['n2', DAY],
    ['n1', DAY],
    ['n3', '2026-11-19'],
  ])
  expect(all.next).toBeNull()
  expect((await page({ personIds: ['p2'] })).notes.map((note) => note.id)).toEqual(['n3'])
  expect((await page({ personIds: ['p1', 'p2'], from: '2026-11-19', to: '2026-11-19' })).notes).toHaveLength(1)

  // n1 and n2 were written at the same moment: the cursor tells them apart by their path.
  const first = await page({ limit: 1 })
  expect(first.notes.map((note) => note.id)).toEqual(['n2'])
  expect(first.next).toEqual({ day: DAY, createdAt: AT, path: 'persons/p1/notes/n2' })
  const second = await page({ limit: 1, after: first.next })
  expect(second.notes.map((note) => note.id)).toEqual(['n1'])
  const third = await page({ limit: 1, after: second.next })
  expect(third.notes.map((note) => note.id)).toEqual(['n3'])
  expect(third.next).toBeNull()
})

test("an employee of another location is denied that location's diary", async () => {
  current.db = world.emp2
  await expect(page({})).rejects.toMatchObject({ code: 'permission-denied' })
  await expect(page({ personIds: ['p1'] })).rejects.toMatchObject({ code: 'permission-denied' })
})

test('an entry is written, corrected by its author with the earlier text kept, and deleted only by a superuser with a reason', async () => {
  current.db = world.emp
  const input = {
    personId: 'p2',
    locationId: 'L1',
    day: '2026-11-18',
    source: 'speech' as const,
    createdBy: 'emp',
    authorName: 'Fornavn emp',
  }
  const id = await stored(createNote({ ...input, text: '  Gik en tur.\nSov godt. ' }))
  const [written] = (await page({ personIds: ['p2'], from: '2026-11-18', to: '2026-11-18' })).notes
  expect(written).toMatchObject({ id, text: 'Gik en tur.\nSov godt.', source: 'speech', createdBy: 'emp' })
  if (written === undefined) return

  await correctNote(written, 'Gik en lang tur.', false, { id: 'emp', name: 'Fornavn emp' })
  const [corrected] = (await page({ personIds: ['p2'], from: '2026-11-18', to: '2026-11-18' })).notes
  expect(corrected?.text).toBe('Gik en lang tur.')
  expect(corrected?.revisions).toEqual([expect.objectContaining({ text: 'Gik en tur.\nSov godt.', by: 'emp' })])
  if (corrected === undefined) return

  // Another employee may not correct it; no employee may delete it.
  current.db = world.emp2
  await expect(correctNote(corrected, 'Noget andet.', false, { id: 'emp2', name: 'X' })).rejects.toMatchObject({
    code: 'permission-denied',
  })
  current.db = world.emp
  await expect(deleteNote(corrected, 'Forkert borger', { id: 'emp', name: 'Fornavn emp' })).rejects.toMatchObject({
    code: 'permission-denied',
  })

  current.db = world.sup
  await deleteNote(corrected, 'Skrevet på forkert borger', { id: 'sup', name: 'Fornavn sup' })
  const [deleted] = (await page({ personIds: ['p2'], from: '2026-11-18', to: '2026-11-18' })).notes
  expect(deleted?.deleted).toMatchObject({ by: 'sup', byName: 'Fornavn sup', reason: 'Skrevet på forkert borger' })
  expect(deleted?.text).toBe('Gik en lang tur.')
})

test("an employee cannot write an entry in a colleague's name or for another location's person", async () => {
  current.db = world.emp
  const base = { locationId: 'L1', day: DAY, source: 'keyboard' as const, authorName: 'X', text: 'Tekst' }
  await expect(stored(createNote({ ...base, personId: 'p1', createdBy: 'emp2' }))).rejects.toMatchObject({
    code: 'permission-denied',
  })
  await expect(
    stored(createNote({ ...base, personId: 'p3', locationId: 'L2', createdBy: 'emp' })),
  ).rejects.toMatchObject({
    code: 'permission-denied',
  })
})

test('of two corrections of one entry from the same reading, the second is told someone corrected it first', async () => {
  current.db = world.emp
  const read = async () => (await page({ personIds: ['p1'] })).notes.find((note) => note.id === 'n1')
  const seen = await read()
  if (seen === undefined) throw new Error('n1 missing')
  current.db = world.sup
  await correctNote(seen, 'Rettet af lederen.', false, { id: 'sup', name: 'Fornavn sup' })
  // The author still has the entry as it was before the superuser's correction.
  current.db = world.emp
  await expect(
    correctNote(seen, 'Rettet af forfatteren.', false, { id: 'emp', name: 'Fornavn emp' }),
  ).rejects.toMatchObject({ name: 'ConcurrentEditError' })
  const stored = await read()
  expect(stored?.text).toBe('Rettet af lederen.')
  expect(stored?.revisions?.map((revision) => revision.text)).toEqual(['En rolig dag.'])
})

test('two corrections at the same moment: one is kept with its revision, the other is refused as a conflict', async () => {
  current.db = world.emp
  const read = async () => (await page({ personIds: ['p1'] })).notes.find((note) => note.id === 'n2')
  const seen = await read()
  if (seen === undefined) throw new Error('n2 missing')
  current.db = world.sup
  const first = correctNote(seen, 'Version A.', false, { id: 'sup', name: 'Fornavn sup' })
  current.db = world.emp
  const second = correctNote(seen, 'Version B.', false, { id: 'emp', name: 'Fornavn emp' })
  const outcomes = await Promise.allSettled([first, second])
  expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1)
  expect((outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({
    name: 'ConcurrentEditError',
  })
  const stored = await read()
  expect(['Version A.', 'Version B.']).toContain(stored?.text)
  expect(stored?.revisions?.map((revision) => revision.text)).toEqual(['En rolig dag.'])
})
