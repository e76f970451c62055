import { NOTE_MAX_LENGTH, NOTE_MAX_REVISIONS, NoteTextSchema } from '@bosted/domain/answer'
import { expect, test } from 'vitest'
import type { StoredNote } from './api/note-document.ts'
import { correction, deletionMarker, hasCorrectionsLeft, lastCorrection, versions } from './note-history.ts'

const note: StoredNote = {
  id: 'n1',
  personId: 'p',
  locationId: 'l',
  day: '2026-11-20',
  createdAt: '2026-11-20T08:00:00.000Z',
  createdBy: 'emp',
  authorName: 'Signe Dahl',
  text: 'Første tekst',
  source: 'keyboard',
}
const editor = { id: 'sup', name: 'Jesper Kjær' }

test('a correction keeps the earlier text with who replaced it when, and appends every later one', () => {
  const first = correction(note, '  Anden tekst ', false, editor, new Date('2026-11-21T09:00:00Z'))
  expect(first).toEqual({
    text: 'Anden tekst',
    source: 'keyboard',
    revisions: [{ text: 'Første tekst', at: '2026-11-21T09:00:00.000Z', by: 'sup', byName: 'Jesper Kjær' }],
  })
  const corrected = { ...note, ...first }
  const second = correction(corrected, 'Tredje tekst', true, editor, new Date('2026-11-22T09:00:00Z'))
  expect(second.revisions.map((revision) => revision.text)).toEqual(['Første tekst', 'Anden tekst'])
  expect(second.source).toBe('speech')
  expect(lastCorrection({ ...corrected, ...second })?.at).toBe('2026-11-22T09:00:00.000Z')
  expect(versions({ ...corrected, ...second }).map((version) => version.text)).toEqual([
    'Tredje tekst',
    'Anden tekst',
    'Første tekst',
  ])
  expect(lastCorrection(note)).toBeNull()
})

test('a deletion is a marker with who, when and why; the text is not touched', () => {
  expect(deletionMarker(' Skrevet på forkert borger ', editor, new Date('2026-11-21T10:00:00Z'))).toEqual({
    at: '2026-11-21T10:00:00.000Z',
    by: 'sup',
    byName: 'Jesper Kjær',
    reason: 'Skrevet på forkert borger',
  })
})

test('an entry is required after trimming and at most 5,000 characters', () => {
  expect(NOTE_MAX_LENGTH).toBe(5000)
  expect(NoteTextSchema.safeParse('   \n ').error?.issues[0]?.message).toBe('Skriv et notat')
  expect(NoteTextSchema.safeParse('x'.repeat(5000)).success).toBe(true)
  expect(NoteTextSchema.safeParse(` ${'x'.repeat(5000)} `).success).toBe(true)
  expect(NoteTextSchema.safeParse('x'.repeat(5001)).error?.issues[0]?.message).toBe('Notatet må højst være 5000 tegn')
})

test('an entry takes 50 corrections and no more (the rules keep at most 50 earlier texts)', () => {
  const earlier = (count: number) =>
    Array.from({ length: count }, (_, i) => ({ text: `T${i}`, at: '2026-11-21T09:00:00.000Z', by: 'sup', byName: 'J' }))
  expect(NOTE_MAX_REVISIONS).toBe(50)
  expect(hasCorrectionsLeft(note)).toBe(true)
  expect(hasCorrectionsLeft({ ...note, revisions: earlier(49) })).toBe(true)
  expect(hasCorrectionsLeft({ ...note, revisions: earlier(50) })).toBe(false)
})
