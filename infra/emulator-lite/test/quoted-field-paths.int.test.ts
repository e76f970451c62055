import { afterAll, beforeAll, expect, test } from 'vitest'
import { type EmulatorLite, startEmulatorLite } from '../src/index.ts'

// Inequalities on fields whose paths need backticks (a dot or a backslash in a name): the implicit
// orders after the explicit one are those fields, in field-path order, then the document name; an
// explicit order on a quoted field counts as ordering it. Found by @google-cloud/firestore's system tests.
const PROJECT = 'demo-quoted-field-paths'
const ROOT = `projects/${PROJECT}/databases/(default)/documents`

let emulator: EmulatorLite
let base: string

const int = (n: number) => ({ integerValue: String(n) })
const str = (s: string) => ({ stringValue: s })

beforeAll(async () => {
  emulator = await startEmulatorLite({ firestorePort: 0, storagePort: 0, authPort: 0, inMemory: true })
  base = `http://127.0.0.1:${emulator.firestorePort}/v1/${ROOT}`
  // d5 sorts differently by `field` than by `field.dot`, so the implicit order shows which comes first.
  const rooms: [string, number, number, number][] = [
    ['d1', 400, 400, 400],
    ['d2', 200, 200, 200],
    ['d3', 100, 100, 100],
    ['d4', 300, 300, 300],
    ['d5', 150, 500, 50],
  ]
  const writes = rooms.map(([id, n, dot, slash]) => ({
    update: {
      name: `${ROOT}/rooms/${id}`,
      fields: { name: str(`room ${n}`), field: str(`field ${n}`), 'field.dot': int(dot), 'field\\slash': int(slash) },
    },
  }))
  const answer = await fetch(`${base}:commit`, { method: 'POST', body: JSON.stringify({ writes }) })
  expect(answer.status).toBe(200)
})

afterAll(async () => {
  await emulator?.close()
})

const fieldFilter = (fieldPath: string, op: string, value: unknown) => ({
  fieldFilter: { field: { fieldPath }, op, value },
})

async function run(orderBy: { field: { fieldPath: string }; direction: string }[] = [], startAt?: unknown) {
  const answer = await fetch(`${base}:runQuery`, {
    method: 'POST',
    body: JSON.stringify({
      structuredQuery: {
        from: [{ collectionId: 'rooms' }],
        where: {
          compositeFilter: {
            op: 'AND',
            filters: [
              fieldFilter('field', 'GREATER_THAN_OR_EQUAL', str('field 100')),
              fieldFilter('`field.dot`', 'NOT_EQUAL', int(300)),
              fieldFilter('`field\\\\slash`', 'LESS_THAN', int(400)),
            ],
          },
        },
        orderBy,
        ...(startAt === undefined ? {} : { startAt }),
      },
    }),
  })
  const body = (await answer.json()) as { document?: { name: string } }[] | { error: { message: string } }
  return { status: answer.status, body }
}

const names = (body: unknown) =>
  (body as { document?: { name: string } }[]).flatMap((row) =>
    row.document ? [row.document.name.split('/').pop()] : [],
  )

test('inequalities on quoted field paths order the result implicitly, in field-path order', async () => {
  const all = await run()
  expect(all.status).toBe(200)
  // `field` first (d3 'field 100', d5 'field 150', d2 'field 200'), not `field.dot` (100, 200, 500).
  expect(names(all.body)).toEqual(['d3', 'd5', 'd2'])
})

test("a cursor naming every order, the quoted fields' and the document's, is accepted", async () => {
  const orderBy = [
    { field: { fieldPath: 'name' }, direction: 'DESCENDING' },
    { field: { fieldPath: 'field' }, direction: 'DESCENDING' },
    { field: { fieldPath: '`field.dot`' }, direction: 'DESCENDING' },
    { field: { fieldPath: '`field\\\\slash`' }, direction: 'DESCENDING' },
    { field: { fieldPath: '__name__' }, direction: 'DESCENDING' },
  ]
  const startAt = {
    before: true,
    values: [str('room 200'), str('field 200'), int(200), int(200), { referenceValue: `${ROOT}/rooms/d2` }],
  }
  const page = await run(orderBy, startAt)
  expect(page.status).toBe(200)
  expect(names(page.body)).toEqual(['d2', 'd5', 'd3'])
})
