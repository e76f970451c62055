import { expect, test } from 'vitest'
import { createDraftStore } from './draft-store.ts'

type Draft = { firstName: string; email: string; password: string; answers: { text: string }[] }
const EMPTY: Draft = { firstName: '', email: '', password: '', answers: [] }

function memoryStorage() {
  const items = new Map<string, string>()
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  }
}

test('a draft survives a reload, all but the password', () => {
  const storage = memoryStorage()
  const store = createDraftStore<Draft>('draft', () => storage)
  store.save({ firstName: 'Astrid', email: 'a@demo.dk', password: 'hemmelig', answers: [{ text: 'Glad' }] })
  expect(storage.items.get('draft')).not.toContain('hemmelig')
  expect(store.load(EMPTY)).toEqual({
    firstName: 'Astrid',
    email: 'a@demo.dk',
    password: '',
    answers: [{ text: 'Glad' }],
  })
})

test('a cleared, missing or damaged draft starts empty', () => {
  const storage = memoryStorage()
  const store = createDraftStore<Draft>('draft', () => storage)
  expect(store.load(EMPTY)).toEqual(EMPTY)
  store.save({ ...EMPTY, firstName: 'Astrid' })
  store.clear()
  expect(store.load(EMPTY)).toEqual(EMPTY)
  storage.setItem('draft', '{not json')
  expect(store.load(EMPTY)).toEqual(EMPTY)
  storage.setItem('draft', JSON.stringify({ firstName: 42, email: 'a@demo.dk' }))
  expect(store.load(EMPTY)).toEqual({ ...EMPTY, email: 'a@demo.dk' })
})
