import { arrayUnion, doc, getDoc, setDoc, setLogLevel, updateDoc } from 'firebase/firestore/lite'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { connectConformanceTarget, type Sdks } from './sdk.ts'

// Firestore's size limits through the official SDKs (issue 29, finding 6): documents of 1.1, 5 and
// 15 MiB were kept. The exact thresholds and every message are compared with Google's emulator in
// parity/limits.parity.test.ts.

let sdk: Sdks

beforeAll(async () => {
  sdk = await connectConformanceTarget()
  // The refusals are expected; the SDK would log each with its megabytes of request.
  setLogLevel('silent')
})

afterAll(() => sdk.close())

const MiB = 1024 * 1024

/**
 * The web SDKs' REST transport (firestore/lite) reads any 400 as `failed-precondition` and prefixes
 * the server's message, against production as against emulator-lite; firebase-admin keeps the status.
 */
async function refusal(work: () => Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await work()
  } catch (error) {
    return { code: String((error as { code?: unknown }).code), message: (error as Error).message }
  }
  throw new Error('the write was kept')
}

test('a 1.1 MiB document of fields each within the field limit is refused with production’s message, and nothing is kept', async () => {
  const ref = doc(sdk.lite, 'limits/big')
  const result = await refusal(() => setDoc(ref, { a: 'x'.repeat(600_000), b: 'y'.repeat(0.5 * MiB) }))
  expect(result.code).toBe('failed-precondition')
  expect(result.message).toMatch(
    /^Request failed with error: Document 'projects\/[^']+\/databases\/\(default\)\/documents\/limits\/big' cannot be written because its size \(1,124,353 bytes\) exceeds the maximum allowed size of 1,048,576 bytes\.$/,
  )
  expect((await getDoc(ref)).exists()).toBe(false)
})

test('a 5 MiB and a 15 MiB field are refused as longer than 1 MiB − 89 bytes', async () => {
  for (const size of [5 * MiB, 15 * MiB]) {
    const result = await refusal(() => setDoc(doc(sdk.lite, 'limits/field'), { text: 'x'.repeat(size) }))
    expect(result).toEqual({
      code: 'failed-precondition',
      message: 'Request failed with error: The value of property "text" is longer than 1048487 bytes.',
    })
  }
})

test('a diary entry cannot grow past 1 MiB by a revision attached with arrayUnion', async () => {
  const ref = doc(sdk.lite, 'persons/p1/notes/n1')
  await setDoc(ref, { text: 'Spiste morgenmad', revisions: [] })
  const result = await refusal(() =>
    updateDoc(ref, {
      revisions: arrayUnion({ text: 'Spiste', at: '2026-11-25T08:00:00Z', by: 'u1', pad: 'x'.repeat(MiB) }),
    }),
  )
  expect(result.code).toBe('failed-precondition')
  expect(result.message).toMatch(/cannot be written because its size \([\d,]+ bytes\) exceeds the maximum allowed size/)
  expect((await getDoc(ref)).data()).toEqual({ text: 'Spiste morgenmad', revisions: [] })
})

test('a document of exactly 1 MiB is kept and reads back whole', async () => {
  // limits/exact: 7 + 6 + 16 = 29; a: 2 + (k + 1); b: 2 + 600001; + 32.
  const k = MiB - 29 - 2 - 1 - 2 - 600_001 - 32
  const ref = doc(sdk.lite, 'limits/exact')
  await setDoc(ref, { a: 'x'.repeat(k), b: 'y'.repeat(600_000) })
  expect(((await getDoc(ref)).get('a') as string).length).toBe(k)
  const over = await refusal(() => setDoc(ref, { a: 'x'.repeat(k + 1), b: 'y'.repeat(600_000) }))
  expect(over.message).toMatch(/\(1,048,577 bytes\)/)
})

test('field names, document ids and document names past their limits are refused (firebase-admin)', async () => {
  const longName = await refusal(() => sdk.admin.doc('limits/name').set({ ['n'.repeat(1501)]: 1 }))
  expect(longName.message).toMatch(/The property\.name is longer than 1500 bytes\./)
  const longId = await refusal(() => sdk.admin.doc(`limits/${'i'.repeat(1501)}`).set({ a: 1 }))
  expect(longId.message).toMatch(/The key path element name is longer than 1500 bytes\./)
  const segments = ['a', 'b', 'c', 'd'].map((c) => `s/${c.repeat(1500)}`).join('/')
  const longPath = await refusal(() => sdk.admin.doc(`${segments}/t/${'e'.repeat(300)}`).set({ a: 1 }))
  expect(longPath.message).toMatch(
    /Document name size \(6\d{3} bytes\) exceeds the maximum allowed size of 6144 bytes\./,
  )
})

test('a batch of 501 writes is one commit, as production allows since 2023 (no 500-writes limit)', async () => {
  const batch = sdk.admin.batch()
  for (let i = 0; i < 501; i++) batch.set(sdk.admin.doc(`limits-batch/d${i}`), { i })
  await batch.commit()
  expect((await sdk.admin.collection('limits-batch').count().get()).data().count).toBe(501)
})
