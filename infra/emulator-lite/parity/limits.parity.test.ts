import { afterAll, beforeAll, expect, test } from 'vitest'
import { LIMIT_CASES, QUERY_LIMIT_CASES } from './limit-cases.ts'
import { startTargets, type Target, type Targets } from './targets.ts'

// Firestore's size limits against Google's emulator: each commit of LIMIT_CASES, by REST as the
// owner, must get the same answer (status and message) from both, but for the declared differences.

let targets: Targets

beforeAll(async () => {
  targets = await startTargets()
}, 120_000)

afterAll(async () => {
  await targets?.close()
})

type Answer = { status: string; message?: string }

async function commit(target: Target, writes: Record<string, unknown>[]): Promise<Answer> {
  const response = await fetch(
    `http://${target.adminHost}/v1/projects/${target.projectId}/databases/(default)/documents:commit`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
      body: JSON.stringify({ writes }),
    },
  )
  const body = (await response.json()) as { error?: { status: string; message: string } }
  return body.error ? { status: body.error.status, message: body.error.message } : { status: 'OK' }
}

const rootOf = (target: Target) => `projects/${target.projectId}/databases/(default)/documents`

test('commits at and past the size limits get the same answers from both emulators', async () => {
  const differences: string[] = []
  for (const [index, limitCase] of LIMIT_CASES.entries()) {
    const collection = `k${String(index).padStart(2, '0')}`
    const answers: Answer[] = []
    for (const target of [targets.lite, targets.official]) {
      answers.push(
        await commit(
          target,
          limitCase.writes((id) => `${rootOf(target)}/${collection}/${id}`),
        ),
      )
    }
    const [lite, official] = answers as [Answer, Answer]
    if (limitCase.declared === undefined) {
      if (JSON.stringify(lite) !== JSON.stringify(official))
        differences.push(
          `${limitCase.name}: emulator-lite ${JSON.stringify(lite)}, official ${JSON.stringify(official)}`,
        )
    } else {
      // A declared difference is one of wording or of a check the emulator lacks; both still refuse or lite does.
      expect(lite.status, limitCase.name).toBe('INVALID_ARGUMENT')
      if (official.status !== 'OK') expect(official.status, limitCase.name).toBe('INVALID_ARGUMENT')
    }
  }
  expect(differences).toEqual([])
}, 300_000)

test('the document-size message differs only in wording: production’s text from emulator-lite, a shorter one from the emulator', async () => {
  const oversized = LIMIT_CASES.find((limitCase) => limitCase.name === 'a document one byte over 1 MiB')
  if (!oversized) throw new Error('case missing')
  const lite = await commit(
    targets.lite,
    oversized.writes((id) => `${rootOf(targets.lite)}/zz1/${id}`),
  )
  const official = await commit(
    targets.official,
    oversized.writes((id) => `${rootOf(targets.official)}/zz1/${id}`),
  )
  expect(official).toEqual({ status: 'INVALID_ARGUMENT', message: 'maximum entity size is 1048576 bytes' })
  expect(lite).toEqual({
    status: 'INVALID_ARGUMENT',
    message: `Document '${rootOf(targets.lite)}/zz1/x12345' cannot be written because its size (1,048,577 bytes) exceeds the maximum allowed size of 1,048,576 bytes.`,
  })
}, 120_000)

test('with rules, a value over the field limit is refused before the rules decide, an oversized document after them', async () => {
  const project = 'demo-limits-rules'
  const rules = `rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
    match /open/{id} { allow write: if true; }
  }
}`
  const answers: Answer[][] = []
  for (const target of [targets.lite, targets.official]) {
    const loaded = await fetch(`http://${target.adminHost}/emulator/v1/projects/${project}:securityRules`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
      body: JSON.stringify({ rules: { files: [{ name: 'firestore.rules', content: rules }] } }),
    })
    expect(loaded.status).toBe(200)
    const root = `projects/${project}/databases/(default)/documents`
    // Unauthenticated, at the client port: the rules apply.
    const commitAsClient = async (path: string, fields: Record<string, unknown>): Promise<Answer> => {
      const response = await fetch(`http://${target.host}/v1/${root}:commit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ writes: [{ update: { name: `${root}/${path}`, fields } }] }),
      })
      const body = (await response.json()) as { error?: { status: string; message: string } }
      return body.error ? { status: body.error.status } : { status: 'OK' }
    }
    const big = { a: { stringValue: 'x'.repeat(600_000) }, b: { stringValue: 'y'.repeat(600_000) } }
    const long = { a: { stringValue: 'x'.repeat(1_048_488) } }
    answers.push([
      await commitAsClient('closed/d1', big),
      await commitAsClient('open/d1', big),
      await commitAsClient('closed/d2', long),
      await commitAsClient('open/d3', { a: { stringValue: 'x' } }),
    ])
  }
  const expected = [
    { status: 'PERMISSION_DENIED' },
    { status: 'INVALID_ARGUMENT' },
    { status: 'INVALID_ARGUMENT' },
    { status: 'OK' },
  ]
  expect(answers).toEqual([expected, expected])
}, 120_000)

test('queries at and past the comparison-value and disjunction limits get the same answers from both emulators', async () => {
  const differences: string[] = []
  for (const queryCase of QUERY_LIMIT_CASES) {
    const answers: Answer[] = []
    for (const target of [targets.lite, targets.official]) {
      const response = await fetch(
        `http://${target.adminHost}/v1/projects/${target.projectId}/databases/(default)/documents:runQuery`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
          body: JSON.stringify({ structuredQuery: { from: [{ collectionId: 'q' }], where: queryCase.where } }),
        },
      )
      const body = (await response.json()) as { error?: Answer } | { error?: { status: string; message: string } }[]
      const error = Array.isArray(body) ? body.find((item) => item.error)?.error : body.error
      answers.push(error ? { status: error.status, message: error.message } : { status: 'OK' })
    }
    if (JSON.stringify(answers[0]) !== JSON.stringify(answers[1]))
      differences.push(
        `${queryCase.name}: emulator-lite ${JSON.stringify(answers[0])}, official ${JSON.stringify(answers[1])}`,
      )
  }
  expect(differences).toEqual([])
}, 120_000)
