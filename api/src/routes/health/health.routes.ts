import { da } from '@bosted/domain'
import { Hono } from 'hono'
import { type Firebase, HEALTH_PROBE_DOCUMENT } from '../../lib/firebase.ts'
import { describeCause, isResourceExhausted } from '../../lib/http-error.ts'
import type { AppEnv } from '../../lib/types.ts'

const CHECK_TIMEOUT_MS = 2_000
const WRITE_TOO_SLOW = `Firestore answers reads but did not store a write within ${CHECK_TIMEOUT_MS / 1000} s`

type CheckState = 'ok' | 'unreachable' | 'resource_exhausted' | 'no_answer'
type Check = { state: CheckState; ms: number; error?: unknown }

/**
 * Resolves 'ok'; 'resource_exhausted' when the backend refused to store anything; `onTimeout`
 * after the timeout (firebase-admin retries for long, RESOURCE_EXHAUSTED on commits included);
 * 'unreachable' on any other error.
 */
async function probe(check: () => Promise<unknown>, onTimeout: CheckState = 'unreachable'): Promise<Check> {
  const started = performance.now()
  const ms = () => Math.round(performance.now() - started)
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<Check>((resolve) => {
    timer = setTimeout(() => resolve({ state: onTimeout, ms: ms(), error: 'no answer in time' }), CHECK_TIMEOUT_MS)
  })
  try {
    return await Promise.race([check().then(() => ({ state: 'ok' as const, ms: ms() })), timeout])
  } catch (error) {
    return { state: isResourceExhausted(error) ? 'resource_exhausted' : 'unreachable', ms: ms(), error }
  } finally {
    clearTimeout(timer)
  }
}

/** Each dependency's check: its state, how long it took, and why it failed (for the log). */
async function checkEach(firebase: Firebase) {
  const [auth, firestore, firestoreWrites] = await Promise.all([
    // Any answer from Auth proves it is reachable; an unknown uid is the cheapest question.
    probe(() =>
      firebase.auth.getUser('health-check').catch((error: { code?: unknown }) => {
        if (error.code !== 'auth/user-not-found') throw error
      }),
    ),
    probe(() => firebase.db.doc(HEALTH_PROBE_DOCUMENT).get()),
    // Reads alone said "ok" while a full disk refused every write: the check writes too (one tiny
    // document). A write that does not come back in time while reads do is reported as well.
    probe(() => firebase.probeWrite(), 'no_answer'),
  ])
  return { auth, firestore, firestoreWrites }
}

const statesOf = (checks: Awaited<ReturnType<typeof checkEach>>) => ({
  auth: checks.auth.state,
  firestore: checks.firestore.state,
  firestoreWrites: checks.firestoreWrites.state,
})

export async function checkDependencies(firebase: Firebase) {
  return statesOf(await checkEach(firebase))
}

/**
 * 200 when Auth and Firestore answer and Firestore stores a write. 503 `unavailable` naming what
 * cannot be reached or does not store in time (for operators, in English); 503 `degraded` with the
 * reason when the backend answers but refuses to store anything (a full disk): reads still work, so
 * the web tells staff, in Danish, that nothing can be saved right now. A write that is merely slow
 * (a busy disk) is no full disk: staff are not told so.
 */
export const healthRoutes = new Hono<AppEnv>().get('/', async (c) => {
  const { firebase } = c.var.services
  const each = await checkEach(firebase)
  const checks = statesOf(each)
  const failing = Object.entries(each).filter(([, check]) => check.state !== 'ok')
  if (failing.length > 0) {
    // For operators: which check failed, after how long, and why (codes and messages, no person data).
    const why = failing.map(
      ([name, check]) => `${name} ${check.state} after ${check.ms} ms: ${describeCause(check.error)}`,
    )
    console.warn(`[api] ${c.var.requestId} GET /api/health: ${why.join('; ')}`)
  }
  const unreachable = (['auth', 'firestore'] as const).filter((name) => checks[name] !== 'ok')
  if (unreachable.length > 0) {
    return c.json({ error: { code: 'unavailable', message: `Cannot reach ${unreachable.join(' and ')}` }, checks }, 503)
  }
  const writes = checks.firestoreWrites
  if (writes === 'resource_exhausted' || (writes === 'no_answer' && firebase.probeWriteHidesRefusals)) {
    const reason =
      writes === 'resource_exhausted'
        ? 'Firestore refuses writes (RESOURCE_EXHAUSTED): the backend cannot store anything, e.g. its disk is full'
        : WRITE_TOO_SLOW
    return c.json({ status: 'degraded', reason, message: da.api.storageFull, checks }, 503)
  }
  if (writes !== 'ok') {
    const message = writes === 'no_answer' ? WRITE_TOO_SLOW : 'Firestore answers reads but a write failed'
    return c.json({ error: { code: 'unavailable', message }, checks }, 503)
  }
  return c.json({ status: 'ok', checks })
})
