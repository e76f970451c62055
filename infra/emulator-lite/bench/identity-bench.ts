// `make bench` (signed identity, issue 27): ID-token verification in emulator-lite (cold = first
// sight of a token, an RSA check; cached = the same token again), sign-in p50, and the commit and
// 10k query through the rules with verification on (signed tokens, the default) vs off
// (acceptUnsignedTokens with a mock token), two instances measured in turns. Prints figures; asserts nothing.
// Run: npx tsx infra/emulator-lite/bench/identity-bench.ts   (or `make bench`)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createIdTokenVerifier, ID_TOKEN_ISSUER, signJwt } from '../src/auth/identity.ts'
import { SigningKeys } from '../src/auth/keys.ts'
import { startEmulatorLite } from '../src/index.ts'
import { signUnsigned } from '../test/forged-token.ts'

const PROJECT = 'demo-identity-bench'
const percentile = (samples: number[], p: number) => {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0
}
const fmt = (ms: number) => (ms < 0.1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`)

// --- Verification alone, in process
{
  const keys = new SigningKeys()
  const { kid, privateKey } = keys.active('id')
  const now = Math.floor(Date.now() / 1000)
  const tokens = Array.from({ length: 2000 }, (_, i) =>
    signJwt(
      {
        iss: `${ID_TOKEN_ISSUER}${PROJECT}`,
        aud: PROJECT,
        sub: `user-${i}`,
        user_id: `user-${i}`,
        auth_time: now,
        iat: now,
        exp: now + 3600,
        email: `user-${i}@bench.dk`,
        firebase: { identities: { email: [`user-${i}@bench.dk`] }, sign_in_provider: 'password' },
      },
      privateKey,
      kid,
    ),
  )
  const { verifyIdToken } = createIdTokenVerifier({ keys, defaultProject: PROJECT })
  const time = (token: string) => {
    const start = performance.now()
    const auth = verifyIdToken(token, PROJECT)
    const elapsed = performance.now() - start
    if (auth === null) throw new Error('bench token refused')
    return elapsed
  }
  for (const token of tokens.slice(0, 100)) time(token) // warm-up (JIT), then fresh tokens
  const cold = tokens.slice(100).map(time)
  const cached = Array.from({ length: 20_000 }, (_, i) => time(tokens[100 + (i % 1900)] as string))
  const unsigned = createIdTokenVerifier({ keys, defaultProject: PROJECT, acceptUnsignedTokens: true })
  const mock = signUnsigned({ sub: 'mock', user_id: 'mock' })
  const lax = Array.from({ length: 20_000 }, () => {
    const start = performance.now()
    unsigned.verifyIdToken(mock, PROJECT)
    return performance.now() - start
  })
  console.log('ID-token verification in emulator-lite (in process, RS256 with a 2048-bit key)')
  console.log(`  cold (first sight, RSA check): p50 ${fmt(percentile(cold, 0.5))}, p99 ${fmt(percentile(cold, 0.99))}`)
  console.log(
    `  cached (seen before):          p50 ${fmt(percentile(cached, 0.5))}, p99 ${fmt(percentile(cached, 0.99))}`,
  )
  console.log(`  unsigned mock token (--accept-unsigned-tokens, decode only): p50 ${fmt(percentile(lax, 0.5))}`)
}

// --- Through HTTP and the rules: verification on vs off
const RULES = `rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
    match /plain/{id} { allow write: if request.auth != null && request.resource.data.i is int; }
    match /big/{id} { allow list: if request.auth != null && resource.data.group in [3, 4]; }
  }
}`
const rulesDir = mkdtempSync(join(tmpdir(), 'identity-bench-'))
writeFileSync(join(rulesDir, 'firestore.rules'), RULES)
const common = {
  firestorePort: 0,
  storagePort: 0,
  authPort: 0,
  inMemory: true,
  authProjectId: PROJECT,
  firestoreRules: join(rulesDir, 'firestore.rules'),
  accessLog: false,
}
const [signed, lax] = await Promise.all([
  startEmulatorLite(common),
  startEmulatorLite({ ...common, acceptUnsignedTokens: true }),
])
try {
  const auth = `http://127.0.0.1:${signed.authPort}/identitytoolkit.googleapis.com/v1`
  const account = { email: 'bench@bench.dk', password: 'hemmelig1' }
  // The owner credential is believed on the admin listener only.
  await fetch(`http://127.0.0.1:${signed.adminPort}/identitytoolkit.googleapis.com/v1/accounts:signUp`, {
    method: 'POST',
    headers: { authorization: 'Bearer owner', 'content-type': 'application/json' },
    body: JSON.stringify({ localId: 'bench', ...account }),
  })
  const signIns: number[] = []
  let idToken = ''
  for (let i = 0; i < 101; i++) {
    const start = performance.now()
    const response = await fetch(`${auth}/accounts:signInWithPassword?key=bench`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(account),
    })
    idToken = ((await response.json()) as { idToken: string }).idToken
    if (i > 0) signIns.push(performance.now() - start)
  }
  console.log(
    `sign-in (signInWithPassword, scrypt + RS256 signing), 100 sequential: p50 ${fmt(percentile(signIns, 0.5))}, p99 ${fmt(percentile(signIns, 0.99))}`,
  )

  const clients = [
    { name: 'verification on (signed token)', port: signed.firestorePort, adminPort: signed.adminPort, token: idToken },
    {
      name: 'verification off (mock token, --accept-unsigned-tokens)',
      port: lax.firestorePort,
      adminPort: lax.adminPort,
      token: signUnsigned({ sub: 'bench', user_id: 'bench' }),
    },
  ]
  const root = `projects/${PROJECT}/databases/(default)/documents`
  const post = async (port: number, rpc: string, body: unknown, authorization: string) => {
    const response = await fetch(`http://127.0.0.1:${port}/v1/${root}${rpc}`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    if (!response.ok) throw new Error(`${rpc}: ${response.status} ${await response.text()}`)
    await response.arrayBuffer()
  }
  const doc = (name: string, i: number) => ({
    update: {
      name: `${root}/${name}`,
      fields: { i: { integerValue: String(i) }, group: { integerValue: String(i % 10) } },
    },
  })
  for (const client of clients) {
    for (let start = 0; start < 10_000; start += 500) {
      const writes = Array.from({ length: 500 }, (_, k) => doc(`big/d${String(start + k).padStart(6, '0')}`, start + k))
      await post(client.adminPort, ':commit', { writes }, 'Bearer owner')
    }
  }
  const query = {
    structuredQuery: {
      from: [{ collectionId: 'big' }],
      where: { fieldFilter: { field: { fieldPath: 'group' }, op: 'EQUAL', value: { integerValue: '3' } } },
      orderBy: [{ field: { fieldPath: 'i' }, direction: 'DESCENDING' }],
      limit: 50,
    },
  }
  /** Alternates the two instances request by request, so both see the same machine. */
  async function inTurns(runs: number, work: (port: number, token: string, i: number) => Promise<void>) {
    const samples: number[][] = clients.map(() => [])
    for (let i = 0; i < runs; i++) {
      for (const [index, client] of clients.entries()) {
        const start = performance.now()
        await work(client.port, `Bearer ${client.token}`, i)
        samples[index]?.push(performance.now() - start)
      }
    }
    return samples.map((s) => percentile(s, 0.5))
  }
  const commits = await inTurns(1000, (port, token, i) =>
    post(port, ':commit', { writes: [doc(`plain/d${i}`, i)] }, token),
  )
  const queries = await inTurns(100, (port, token) => post(port, ':runQuery', query, token))
  console.log('Firestore through the rules, the two instances in turns:')
  for (const [index, client] of clients.entries()) {
    console.log(
      `  ${client.name.padEnd(56)} commit p50 ${fmt(commits[index] as number)}, 10k runQuery p50 ${fmt(queries[index] as number)}`,
    )
  }
  const [commitOn, commitOff] = commits as [number, number]
  const [queryOn, queryOff] = queries as [number, number]
  console.log(
    `  added by verification: commit ${fmt(commitOn - commitOff)} (${(((commitOn - commitOff) / commitOff) * 100).toFixed(1)} %), 10k query ${(((queryOn - queryOff) / queryOff) * 100).toFixed(1)} %`,
  )
} finally {
  await Promise.all([signed.close(), lax.close()])
  rmSync(rulesDir, { recursive: true, force: true })
}
