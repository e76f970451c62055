// `make bench` (api): throughput and p50/p99 latency of POST /api/auth/validate and GET /api/health
// with autocannon over loopback, 10 s each, against the real api process (api/src/index.ts) on the
// real Auth emulator and emulator-lite, and the cost of the api's own token verification measured
// in-process. Prints the figures and writes BENCHMARKS.md; asserts nothing.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { Agent, request as httpRequest } from 'node:http'
import { cpus, loadavg, totalmem } from 'node:os'
import { join } from 'node:path'
import { freePort } from '@bosted/stack/ports'
import { startTestStack } from '@bosted/stack/testing'
import autocannon from 'autocannon'
import { createFirebase } from '../src/lib/firebase.ts'
import { SessionVerifier } from '../src/lib/sessions.ts'
import { emulatorKeySource, TokenVerifier } from '../src/lib/token-verifier.ts'

const NOTES = `Target from the issue: p99 < 20 ms at 500 requests/s on validate.

Reading the figures:
- "paced" runs send one request every 2 ms whatever the answers do and count each latency from
  the moment the request was due, so queueing shows. autocannon's \`overallRate\` sends each
  second's quota in a burst and then idles, so its p99 at a "rate" measures bursts; autocannon is
  used unthrottled (10 connections, closed loop) for throughput.
- validate = the api's own TokenVerifier (jose, against emulator-lite's published keys; ADR 0012):
  signature and claims, then the revocation check, which asks Auth for the user (firebase-admin's
  getUser) on every uncached check. The api shares
  concurrent checks of one cookie and reuses a positive answer for SESSION_CHECK_CACHE_MS
  (default 5 s, re-checked in the background before it runs out); a logout through the api ends
  the cookie at once, a revocation elsewhere shows within those 5 s. With the cache off every
  check is one Auth emulator round-trip, and the emulator (one Node process) is the bottleneck.
- token verification (in-process, keys already fetched: the one cold fetch per key set is excluded):
  "signature + claims" is what every uncached check pays in CPU; "cached session check" is what a
  request in steady use pays through SessionVerifier, i.e. the cost the verification adds per request
  (target < 0.2 ms p50).
- health asks Auth and Firestore on every call by design; it is for \`make start\` and monitors,
  not a hot path.
- The machine is shared (2 cores, other test suites running): figures vary by ±30 % between runs.
`

const SESSIONS = 50
const DURATION_S = 10
const TARGET_RATE = 500

const stack = await startTestStack({ serveWeb: false, seed: false, build: false, api: false })
// firebase-admin (used here to create the users) finds the emulators through the environment.
for (const [key, value] of Object.entries(stack.env)) if (value !== undefined) process.env[key] = value
const children: ChildProcess[] = []
const lines: string[] = []
const report = (line: string) => {
  console.log(line)
  lines.push(line)
}

/** Starts api/src/index.ts as `make start` does, with extra variables; resolves its base URL once healthy. */
async function startApi(extraEnv: Record<string, string>): Promise<string> {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../src/index.ts')], {
    env: {
      ...process.env,
      ...stack.env,
      API_HOST: '127.0.0.1',
      API_PORT: String(port),
      COOKIE_SECURE: 'false',
      LOGIN_RATE_LIMIT_MAX: '1000',
      ...extraEnv,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  children.push(child)
  const base = `http://127.0.0.1:${port}`
  for (;;) {
    const health = await fetch(`${base}/api/health`).catch(() => undefined)
    if (health?.ok) return base
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** Distinct users with real sessions: signed in at the Auth emulator, logged in through the api. */
async function createSessions(base: string): Promise<string[]> {
  const firebase = createFirebase({ projectId: String(stack.env.FIREBASE_PROJECT_ID), useFirestoreEmulator: true })
  const cookies: string[] = []
  for (let i = 0; i < SESSIONS; i++) {
    const email = `bench-${i}-${Date.now()}@api-bench.dk`
    await firebase.auth.createUser({ email, password: 'bench-password' })
    const signIn = await fetch(
      `http://${stack.env.FIREBASE_AUTH_EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-api-key`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'bench-password', returnSecureToken: true }),
      },
    )
    const { idToken } = (await signIn.json()) as { idToken: string }
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ idToken }),
    })
    const session = login.headers.getSetCookie().find((cookie) => cookie.startsWith('session='))
    if (!session) throw new Error(`login failed: ${login.status}`)
    cookies.push(session.split(';')[0] as string)
  }
  await firebase.close()
  return cookies
}

type Run = {
  label: string
  base: string
  path: string
  method: string
  cookies?: string[]
  rate?: number
  durationS?: number
}

/** Two seconds unmeasured first: JIT warm-up and each session's first check. */
const warmUp = (runOptions: Omit<Run, 'label'>) => run({ ...runOptions, label: 'warm-up', durationS: 2 }, false)

async function run(
  { label, base, path, method, cookies, rate, durationS = DURATION_S }: Run,
  print = true,
): Promise<void> {
  let next = 0
  let valid = 0
  const result = await autocannon({
    url: base,
    connections: 10,
    duration: durationS,
    ...(rate ? { overallRate: rate } : {}),
    requests: [
      {
        method,
        path,
        ...(cookies
          ? {
              setupRequest: (request) => ({
                ...request,
                headers: { ...request.headers, cookie: cookies[next++ % cookies.length] as string },
              }),
              onResponse: (_status, body) => {
                if (body.includes('"isValid":true')) valid += 1
              },
            }
          : {}),
      },
    ],
  })
  const problems = result.non2xx + result.errors + result.timeouts
  if (!print) return
  report(
    `- ${label}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
      `max ${result.latency.max} ms (${result.requests.total} requests, ${problems} non-2xx/errors` +
      `${cookies ? `, ${valid} answered isValid:true` : ''})`,
  )
}

/** One request over a keep-alive agent; resolves the response body. */
function send(
  agent: Agent,
  url: URL,
  method: string,
  cookie: string | undefined,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { agent, method, headers: { 'content-length': '0', ...(cookie ? { cookie } : {}) } },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => {
          body += chunk
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      },
    )
    req.on('error', reject)
    req.end()
  })
}

const percentile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0

/** p50/p99 of `operation` over `iterations` sequential calls, in ms with microsecond precision. */
async function timeEach(label: string, iterations: number, operation: (i: number) => Promise<unknown>) {
  const times: number[] = []
  for (let i = 0; i < iterations; i++) {
    const start = performance.now()
    await operation(i)
    times.push(performance.now() - start)
  }
  times.sort((a, b) => a - b)
  report(
    `- ${label}: p50 ${percentile(times, 0.5).toFixed(3)} ms, p99 ${percentile(times, 0.99).toFixed(3)} ms ` +
      `(${iterations} verifications)`,
  )
}

/**
 * The api's token verification in this process, on the real session cookies: keys fetched once
 * before measuring (the cold fetch is excluded), then signature + claims alone, the full check with
 * revocation (one Auth round-trip), and a session check answered from SessionVerifier's cache.
 */
async function measureVerification(cookies: string[]): Promise<void> {
  const firebase = createFirebase({ projectId: String(stack.env.FIREBASE_PROJECT_ID), useFirestoreEmulator: true })
  const tokens = new TokenVerifier({
    projectId: firebase.projectId,
    keys: emulatorKeySource(String(stack.env.FIREBASE_AUTH_EMULATOR_HOST)),
    getUser: (uid) => firebase.auth.getUser(uid),
  })
  const sessions = new SessionVerifier({
    verifySessionCookie: (cookie) => tokens.verifySessionCookie(cookie),
    cacheMs: 5_000,
  })
  const values = cookies.map((cookie) => cookie.slice('session='.length))
  const cookieAt = (i: number) => values[i % values.length] as string
  for (const cookie of values) await sessions.verify(cookie) // keys fetched, JIT warm, cache filled
  await timeEach('token verification, signature + claims (keys cached)', 5_000, (i) =>
    tokens.verifySignedClaims('sessionCookie', cookieAt(i)),
  )
  await timeEach('token verification, full check with revocation (one getUser round-trip)', 1_000, (i) =>
    tokens.verifySessionCookie(cookieAt(i)),
  )
  await timeEach('cached session check (SessionVerifier, what a request in steady use pays)', 5_000, (i) =>
    sessions.verify(cookieAt(i)),
  )
  await firebase.close()
}

/**
 * An evenly paced open-loop load: one request every 1000/rate ms whatever the answers do, each
 * latency counted from the moment the request was due (so queueing is not hidden). autocannon's
 * overallRate sends each second's quota in a burst and then waits, which measures bursts instead.
 */
async function paced({ label, base, path, method, cookies, rate = TARGET_RATE, durationS = DURATION_S }: Run) {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 })
  const url = new URL(path, base)
  const total = rate * durationS
  const latencies: number[] = []
  let failures = 0
  let valid = 0
  const start = performance.now()
  await new Promise<void>((resolve) => {
    let sent = 0
    let finished = 0
    const tick = () => {
      const now = performance.now()
      while (sent < total && start + (sent * 1000) / rate <= now) {
        const due = start + (sent * 1000) / rate
        const cookie = cookies?.[sent % cookies.length]
        sent += 1
        send(agent, url, method, cookie)
          .then(({ status, body }) => {
            latencies.push(performance.now() - due)
            if (status !== 200) failures += 1
            if (body.includes('"isValid":true')) valid += 1
          })
          .catch(() => {
            failures += 1
          })
          .finally(() => {
            finished += 1
            if (finished === total) resolve()
          })
      }
      if (sent < total) setTimeout(tick, 1)
    }
    tick()
  })
  const elapsedS = (performance.now() - start) / 1000
  agent.destroy()
  latencies.sort((a, b) => a - b)
  report(
    `- ${label}: ${Math.round(total / elapsedS)} req/s, p50 ${percentile(latencies, 0.5).toFixed(1)} ms, ` +
      `p99 ${percentile(latencies, 0.99).toFixed(1)} ms, max ${(latencies.at(-1) ?? 0).toFixed(1)} ms ` +
      `(${total} requests, ${failures} non-2xx/errors${cookies ? `, ${valid} answered isValid:true` : ''})`,
  )
}

try {
  const cached = await startApi({})
  const cookies = await createSessions(cached)
  const uncached = await startApi({ SESSION_CHECK_CACHE_MS: '0' })
  const validate = { path: '/api/auth/validate', method: 'POST', cookies }
  report(
    `Measured by \`make bench\` (api/bench/bench.ts) on ${new Date().toISOString().slice(0, 10)}, ` +
      `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}; ` +
      `${DURATION_S} s per run after a 2 s warm-up, ${SESSIONS} distinct session cookies in rotation, ` +
      'api process (api/src/index.ts) + Auth emulator + emulator-lite + load generator on the same machine, ' +
      `load average ${loadavg()[0]?.toFixed(1)} before the runs (client time included).`,
  )
  report('')
  await measureVerification(cookies)
  report('')
  await warmUp({ base: cached, ...validate })
  await warmUp({ base: uncached, ...validate })
  await paced({
    label: `validate, paced at ${TARGET_RATE} req/s (default 5 s session-check cache)`,
    base: cached,
    ...validate,
  })
  await run({ label: 'validate, unthrottled (autocannon, default cache)', base: cached, ...validate })
  await paced({
    label: `validate, paced at ${TARGET_RATE} req/s, cache off (every check asks the Auth emulator)`,
    base: uncached,
    ...validate,
  })
  await run({ label: 'validate, unthrottled (autocannon, cache off)', base: uncached, ...validate })
  await run({
    label: 'health, unthrottled (autocannon; asks Auth and Firestore each time)',
    base: cached,
    path: '/api/health',
    method: 'GET',
  })
} finally {
  for (const child of children) child.kill('SIGTERM')
  await stack.stop()
}

// The latest figures and the notes replace the file's head; the dated sections below them
// (comparisons such as Node 20 against Node 24) are history and stay.
const file = join(import.meta.dirname, '../BENCHMARKS.md')
const previous = existsSync(file) ? readFileSync(file, 'utf8') : ''
const history = previous.indexOf('\n## ')
writeFileSync(
  file,
  `# api benchmarks\n\n${lines.join('\n')}\n\n${NOTES}${history === -1 ? '' : previous.slice(history)}`,
)
