import { afterAll, expect, test } from 'vitest'
import { Store } from '../store/store.ts'
import { applyWrites, sameStored } from './writes.ts'

const store = new Store({ inMemory: true })
const db = { project: 'demo-writes', database: '(default)' }
const name = `projects/${db.project}/databases/(default)/documents/c/a`
afterAll(() => store.close())

test('the same data is the same whatever the key order; another type, -0 or another value is not', () => {
  const fields = {
    n: { integerValue: '1' },
    m: { mapValue: { fields: { a: { doubleValue: 0 }, b: { nullValue: null } } } },
  }
  expect(
    sameStored(fields, {
      m: { mapValue: { fields: { b: { nullValue: null }, a: { doubleValue: 0 } } } },
      n: { integerValue: '1' },
    }),
  ).toBe(true)
  expect(sameStored({ n: { integerValue: '1' } }, { n: { doubleValue: 1 } })).toBe(false)
  expect(sameStored({ n: { doubleValue: 0 } }, { n: { doubleValue: -0 } })).toBe(false)
  expect(sameStored({ n: { doubleValue: Number.NaN } }, { n: { doubleValue: Number.NaN } })).toBe(true)
  expect(sameStored({ a: { arrayValue: { values: [] } } }, { a: { mapValue: {} } })).toBe(false)
  expect(sameStored({ a: { stringValue: 'x' } }, { a: { stringValue: 'x' }, b: { nullValue: null } })).toBe(false)
})

test('a write that leaves the document as it was keeps its version; one that changes it moves it', () => {
  const set = (fields: Record<string, unknown>) => applyWrites(store, db, [{ update: { name, fields } }])
  const first = set({ count: { integerValue: '1234' } })
  const stored = store.getDocument(db.project, db.database, 'c/a')?.updateTime
  const again = set({ count: { integerValue: '1234' } })
  expect(again.writeResults[0]?.updateTime).toBe(first.writeResults[0]?.updateTime)
  expect(again.commitTime).not.toBe(first.commitTime)
  expect(store.getDocument(db.project, db.database, 'c/a')?.updateTime).toBe(stored)
  const changed = set({ count: { doubleValue: 1234 } })
  expect(changed.writeResults[0]?.updateTime).toBe(changed.commitTime)
  expect(store.getDocument(db.project, db.database, 'c/a')?.updateTime).not.toBe(stored)
})
