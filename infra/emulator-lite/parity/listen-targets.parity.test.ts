import { randomUUID } from 'node:crypto'
import { type App, deleteApp, initializeApp } from 'firebase-admin/app'
import { type Firestore, getFirestore } from 'firebase-admin/firestore'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { EmulatorLite } from '../src/index.ts'
import { openStream, type StreamEvent } from '../test/grpc-stream.ts'
import { startBoth } from './both-emulators.ts'
import type { OfficialFirestore } from './official-emulator.ts'

// Two query targets on one Listen stream that both match a new document: after the write, each target
// gets its change and CURRENT, and one global snapshot follows them all, from both emulators. A global
// snapshot between the targets would raise the SDK's snapshot while the document had reached only the
// first (the second's view then comes from the cache: ADR 0029, ADR 0032).
const PROJECT = 'demo-listen-targets'
const DATABASE = `projects/${PROJECT}/databases/(default)`
const RULES = `rules_version = '2';
service cloud.firestore { match /databases/{database}/documents { match /{d=**} { allow read, write: if true; } } }`
let closeBoth: (() => Promise<void>) | undefined
let official: OfficialFirestore
let lite: EmulatorLite
const apps: App[] = []
function adminAt(host: string): Firestore {
  process.env.FIRESTORE_EMULATOR_HOST = host
  const app = initializeApp({ projectId: PROJECT }, `listen-targets-${randomUUID()}`)
  apps.push(app)
  return getFirestore(app)
}
beforeAll(async () => {
  ;({ official, lite, close: closeBoth } = await startBoth('listen-targets', RULES))
}, 180_000)
afterAll(async () => {
  await Promise.allSettled(apps.map((app) => deleteApp(app)))
  await closeBoth?.()
})

async function probe(host: string): Promise<string[]> {
  const db = adminAt(host)
  const collectionId = `overlap-${randomUUID().slice(0, 8)}`
  const q = (from: number) => ({
    parent: `${DATABASE}/documents`,
    structuredQuery: {
      from: [{ collectionId }],
      where: {
        fieldFilter: {
          field: { fieldPath: 'day' },
          op: 'GREATER_THAN_OR_EQUAL',
          value: { integerValue: String(from) },
        },
      },
    },
  })
  const stream = openStream(host, 'Listen', 'Bearer owner', DATABASE)
  stream.send({ database: DATABASE, addTarget: { targetId: 2, query: q(1) } })
  stream.send({ database: DATABASE, addTarget: { targetId: 4, query: q(5) } })
  const kinds: string[] = []
  const kind = (event: StreamEvent) => {
    if (!('message' in event)) return `status ${event.code}`
    const { targetChange, documentChange } = event.message as {
      targetChange?: { targetChangeType?: string; targetIds?: number[] }
      documentChange?: { document?: { name?: string }; targetIds?: number[] }
    }
    if (documentChange !== undefined)
      return `change ${documentChange.document?.name?.split('/').pop()} [${documentChange.targetIds?.join(',')}]`
    return targetChange?.targetIds?.length
      ? `${targetChange.targetChangeType} [${targetChange.targetIds.join(',')}]`
      : 'global'
  }
  let pending = stream.next()
  const drain = async (ms: number) => {
    for (;;) {
      const next = await Promise.race([pending, new Promise<null>((r) => setTimeout(() => r(null), ms))])
      if (next === null) return
      pending = stream.next()
      kinds.push(kind(next))
    }
  }
  await drain(1_500)
  kinds.push('| write')
  await db.doc(`${collectionId}/x`).set({ day: 7 })
  await drain(1_500)
  stream.cancel()
  return kinds
}

/** What follows the write, without the official emulator's RESETs (it re-sends a target whole; emulator-lite sends the difference). */
const afterWrite = (kinds: string[]) =>
  kinds.slice(kinds.indexOf('| write') + 1).filter((kind) => !kind.startsWith('RESET'))

test('two overlapping targets get a write each, then one global snapshot, from both emulators', async () => {
  const fromLite = afterWrite(await probe(`127.0.0.1:${lite.adminPort}`))
  const fromOfficial = afterWrite(await probe(official.host))
  for (const kinds of [fromLite, fromOfficial]) {
    expect(kinds.filter((kind) => kind === 'global')).toEqual(['global'])
    expect(kinds.at(-1)).toBe('global')
  }
  // The targets' order is each emulator's own.
  expect([...fromLite].sort()).toEqual([...fromOfficial].sort())
  expect([...fromLite].sort()).toEqual(['CURRENT [2]', 'CURRENT [4]', 'change x [2]', 'change x [4]', 'global'])
}, 120_000)
