import fc from 'fast-check'
import { compare } from './differential.ts'
import type { Target, Targets } from './targets.ts'

// The rules differential: random well-typed rule expressions, evaluated by both engines as
// `allow read, create: if <expr>` for a random caller, stored document, created document
// (request.resource) and other documents (get/exists): a read and a create per expression.

const int = (depth: number): fc.Arbitrary<string> =>
  depth <= 0
    ? fc.oneof(
        fc.constantFrom('0', '1', '2', '-3', '10'),
        fc.constantFrom(
          'resource.data.n',
          'request.auth.token.n',
          'request.resource.data.n',
          'get(/databases/$(database)/documents/others/o).data.n',
        ),
        fc.constantFrom('resource.data.l.size()', 'request.auth.uid.size()', "resource.data.get('m', 7)"),
      )
    : fc.oneof(
        { arbitrary: int(0), weight: 3 },
        fc
          .tuple(int(depth - 1), fc.constantFrom('+', '-', '*', '/', '%'), int(depth - 1))
          .map(([a, op, b]) => `(${a} ${op} ${b})`),
        str(depth - 1).map((s) => `${s}.size()`),
        list(depth - 1).map((l) => `${l}.size()`),
      )

const str = (depth: number): fc.Arbitrary<string> =>
  depth <= 0
    ? fc.oneof(
        fc.constantFrom("''", "'a'", "'A'", "'ab'", "'é'", "'😀'", "'\\uffff'"),
        fc.constantFrom('request.auth.uid', 'resource.data.s', 'request.auth.token.s', 'resource.id', 'id'),
      )
    : fc.oneof(
        { arbitrary: str(0), weight: 3 },
        fc.tuple(str(depth - 1), str(depth - 1)).map(([a, b]) => `(${a} + ${b})`),
        str(depth - 1).map((s) => `${s}.lower()`),
        str(depth - 1).map((s) => `${s}.upper()`),
        fc.tuple(str(depth - 1), int(0), int(0)).map(([s, a, b]) => `${s}[${a}:${b}]`),
        fc.tuple(str(depth - 1), int(0)).map(([s, i]) => `${s}[${i}]`),
      )

const list = (depth: number): fc.Arbitrary<string> =>
  depth <= 0
    ? fc.oneof(fc.constantFrom('[]', "['a', 1]", '[1, 2, 3]', 'resource.data.l', "request.auth.token.get('l', [])"))
    : fc.oneof(
        { arbitrary: list(0), weight: 3 },
        fc.tuple(list(depth - 1), int(0), int(0)).map(([l, a, b]) => `${l}[${a}:${b}]`),
        fc.tuple(list(depth - 1), list(depth - 1)).map(([a, b]) => `${a}.concat(${b})`),
        fc.tuple(list(depth - 1), list(depth - 1)).map(([a, b]) => `${a}.removeAll(${b})`),
      )

const bool = (depth: number): fc.Arbitrary<string> => {
  const leaf = fc.oneof(
    fc.constantFrom('true', 'false', 'request.auth == null', 'request.auth != null', 'resource == null'),
    fc.constantFrom(
      'exists(/databases/$(database)/documents/others/o)',
      'exists(/databases/$(database)/documents/others/$(request.auth.uid))',
      'request.time > timestamp.value(0)',
      'request.time < timestamp.date(2000, 1, 1)',
      'resource.data.b',
      "'admin' in request.auth.token",
      'request.auth.token.admin == true',
      'resource.data.n is int',
      'request.resource.data.n == 1',
      "request.resource.data.keys().hasOnly(['n', 's'])",
      'request.resource.data.s is string',
      'resource.data.s is string',
      "resource.data.keys().hasAll(['n'])",
    ),
  )
  if (depth <= 0) return leaf
  return fc.oneof(
    { arbitrary: leaf, weight: 2 },
    fc
      .tuple(int(depth - 1), fc.constantFrom('==', '!=', '<', '<=', '>', '>='), int(depth - 1))
      .map(([a, op, b]) => `${a} ${op} ${b}`),
    fc
      .tuple(str(depth - 1), fc.constantFrom('==', '!=', '<', '>'), str(depth - 1))
      .map(([a, op, b]) => `${a} ${op} ${b}`),
    fc.tuple(list(depth - 1), list(depth - 1)).map(([a, b]) => `${a} == ${b}`),
    fc.tuple(str(depth - 1), list(depth - 1)).map(([a, b]) => `${a} in ${b}`),
    fc.tuple(int(depth - 1), list(depth - 1)).map(([a, b]) => `${a} in ${b}`),
    fc.tuple(list(depth - 1), list(depth - 1)).map(([a, b]) => `${a}.hasAny(${b})`),
    fc.tuple(str(depth - 1), fc.constantFrom("'a.*'", "'[a-z]+'", "'.*'")).map(([s, re]) => `${s}.matches(${re})`),
    fc.tuple(bool(depth - 1), fc.constantFrom('&&', '||'), bool(depth - 1)).map(([a, op, b]) => `(${a} ${op} ${b})`),
    bool(depth - 1).map((b) => `!(${b})`),
    fc.tuple(bool(depth - 1), bool(depth - 1), bool(depth - 1)).map(([c, a, b]) => `(${c} ? ${a} : ${b})`),
  )
}

export const expression = bool(2)

type Scalar = number | string | boolean | null | Scalar[]
export type RulesContext = {
  auth: { uid: string; claims: Record<string, Scalar> } | null
  resource: Record<string, Scalar> | null
  other: Record<string, Scalar> | null
  docId: string
  /** The document a create sends (`request.resource.data`). */
  created: Record<string, Scalar>
}

const scalar = fc.oneof(fc.integer({ min: -3, max: 10 }), fc.constantFrom('a', 'A', 'é', '', 'ab'), fc.boolean())
export const context: fc.Arbitrary<RulesContext> = fc.record({
  auth: fc.option(
    fc.record({
      uid: fc.constantFrom('u1', 'o', 'é'),
      claims: fc.record(
        { n: scalar, s: scalar, admin: fc.boolean(), l: fc.array(scalar, { maxLength: 3 }) },
        { requiredKeys: [] },
      ),
    }),
  ),
  resource: fc.option(
    fc.record(
      { n: scalar, s: scalar, b: scalar, l: fc.array(scalar, { maxLength: 3 }), m: scalar },
      { requiredKeys: [] },
    ),
  ),
  other: fc.option(fc.record({ n: scalar }, { requiredKeys: [] })),
  docId: fc.constantFrom('d', 'a', 'é'),
  created: fc.record({ n: scalar, s: scalar, l: fc.array(scalar, { maxLength: 2 }) }, { requiredKeys: [] }),
})

function toRest(value: Scalar): Record<string, unknown> {
  if (value === null) return { nullValue: null }
  if (typeof value === 'boolean') return { booleanValue: value }
  if (typeof value === 'number') return { integerValue: String(value) }
  if (typeof value === 'string') return { stringValue: value }
  return { arrayValue: { values: value.map(toRest) } }
}

/** An unsigned ID token (alg none), as the Auth emulators mint and rules-unit-testing mocks. */
function token(projectId: string, auth: NonNullable<RulesContext['auth']>): string {
  const now = Math.floor(Date.now() / 1000)
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  return `${encode({ alg: 'none', typ: 'JWT' })}.${encode({
    ...auth.claims,
    iss: `https://securetoken.google.com/${projectId}`,
    aud: projectId,
    sub: auth.uid,
    user_id: auth.uid,
    iat: now,
    exp: now + 3600,
    auth_time: now,
    firebase: { identities: {}, sign_in_provider: 'custom' },
  })}.`
}

let counter = 0

/**
 * `allow`, `deny` (with ` @ L<line>` where the denial names the ruleset's line, as production's engine
 * reports it: the error position is part of the decision) or the status, prefixed by `what`.
 */
async function decisionOf(response: Response, what: string, allowed: boolean): Promise<string> {
  const body = await response.text()
  if (response.status === 403) {
    const line = /@ L(\d+)/.exec(body)?.[1]
    return `${what}deny${line === undefined ? '' : ` @ L${line}`}`
  }
  return allowed ? `${what}allow` : `${what}status ${response.status}`
}

/** One decision per expression: 'allow' or 'deny' (the status), for the same caller and documents. */
async function decide(target: Target, expressions: string[], ctx: RulesContext, place: string): Promise<string[]> {
  const rules = `rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
${expressions.map((expr, i) => `    match /${place}e${i}/{id} {\n      allow read, create: if ${expr};\n    }`).join('\n')}
  }
}
`
  const base = `http://${target.host}`
  const owner = { authorization: 'Bearer owner', 'content-type': 'application/json' }
  const put = await fetch(`http://${target.adminHost}/emulator/v1/projects/${target.projectId}:securityRules`, {
    method: 'PUT',
    headers: owner,
    body: JSON.stringify({ rules: { files: [{ name: 'firestore.rules', content: rules }] } }),
  })
  if (!put.ok) return expressions.map(() => `rules refused: ${put.status}`)
  const { db } = target
  if (ctx.other) await db.doc(`others/o`).set(ctx.other)
  else await db.doc('others/o').delete()
  for (let i = 0; i < expressions.length; i++)
    if (ctx.resource) await db.doc(`${place}e${i}/${ctx.docId}`).set(ctx.resource)
  const headers: Record<string, string> = ctx.auth
    ? { authorization: `Bearer ${token(target.projectId, ctx.auth)}` }
    : {}
  const decisions: string[] = []
  for (let i = 0; i < expressions.length; i++) {
    const response = await fetch(
      `${base}/v1/projects/${target.projectId}/databases/(default)/documents/${place}e${i}/${ctx.docId}`,
      { headers },
    )
    decisions.push(await decisionOf(response, '', response.status < 500))
    // A create of another document of the same collection: request.resource is what it sends.
    const name = `projects/${target.projectId}/databases/(default)/documents/${place}e${i}/new-${ctx.docId}`
    const fields = Object.fromEntries(Object.entries(ctx.created).map(([k, v]) => [k, toRest(v)]))
    const create = await fetch(`${base}/v1/projects/${target.projectId}/databases/(default)/documents:commit`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ writes: [{ update: { name, fields }, currentDocument: { exists: false } }] }),
    })
    decisions.push(await decisionOf(create, 'create ', create.ok))
  }
  return decisions
}

export function rulesProperty(targets: Targets) {
  return fc.asyncProperty(fc.array(expression, { minLength: 1, maxLength: 5 }), context, async (expressions, ctx) => {
    counter += 1
    const place = `r${process.pid}x${counter}`
    const lite = await decide(targets.lite, expressions, ctx, place)
    const official = await decide(targets.official, expressions, ctx, place)
    if (process.env.PARITY_VERBOSE) console.error(JSON.stringify({ expressions, ctx, lite, official }))
    for (let i = 0; i < lite.length; i++) {
      // The error position counts where production reports one.
      const liteDecision = official[i]?.includes(' @ L') ? lite[i] : lite[i]?.replace(/ @ L\d+$/, '')
      compare('rules decision', { expression: expressions[i >> 1], context: ctx }, liteDecision, official[i])
    }
  })
}
