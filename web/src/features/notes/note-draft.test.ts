import { expect, test } from 'vitest'
import { clearNoteDraft, lastDraftPerson, loadNoteDraft, saveNoteDraft } from './note-draft.ts'

test('a draft is kept per user and person, and an empty one is removed', () => {
  saveNoteDraft('u1', 'p1', { text: 'Halvt skrevet', day: '2026-11-24', dictated: true })
  saveNoteDraft('u1', 'p2', { text: 'Andet', day: '2026-11-23', dictated: false })
  expect(loadNoteDraft('u1', 'p1')).toEqual({ text: 'Halvt skrevet', day: '2026-11-24', dictated: true })
  expect(loadNoteDraft('u2', 'p1')).toBeNull()
  expect(lastDraftPerson('u1')).toBe('p2')
  saveNoteDraft('u1', 'p2', { text: '  ', day: '2026-11-23', dictated: false })
  expect(loadNoteDraft('u1', 'p2')).toBeNull()
  clearNoteDraft('u1', 'p1')
  expect(loadNoteDraft('u1', 'p1')).toBeNull()
})

test('a damaged draft is ignored', () => {
  sessionStorage.setItem('bosted.noteDraft.u1.p9', '{not json')
  expect(loadNoteDraft('u1', 'p9')).toBeNull()
  sessionStorage.setItem('bosted.noteDraft.u1.p9', JSON.stringify({ text: 3 }))
  expect(loadNoteDraft('u1', 'p9')).toBeNull()
})
