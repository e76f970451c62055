import { da } from '@bosted/domain'
import { Hono } from 'hono'
import { type Firebase, HEALTH_PROBE_DOCUMENT } from '../../lib/firebase.ts'
import { isResourceExhausted } from '../../lib/http-error.ts'
import type { AppEnv } from '../../lib/types.ts'

const CHECK_TIMEOUT_MS = 2_000

type CheckState = 'ok' | 'unreachable' | 'resource_exhausted' | 'no_answer'

/**
 * Resolves 'ok'; 'resource_exhausted' when the backend refused to store anything; `onTimeout`
 * after the timeout (firebase-admin retries for long, RESOURCE_EXHAUSTED on commits included);
 * 'unreachable' on any other error.
 */
async function probe(check: () => Promise<unknown>, onTimeout: CheckState = 'unreachable'): Promise<CheckState> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<CheckState>((resolve) => {
    timer = setTimeout(() => resolve(onTimeout), CHECK_TIMEOUT_MS)
  })
  try {
    return await Promise.race([check().then(() => 'ok' as const), timeout])
  } catch (error) {
    return isResourceExhausted(error) ? 'resource_exhausted' : 'unreachable'
  } finally {
    clearTimeout(timer)
  }
}

export async function checkDependencies(firebase: Firebase) {
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

/**
 * 200 when Auth and Firestore answer and Firestore stores a write. 503 `unavailable` naming what
 * cannot be reached (for operators, in English); 503 `degraded` with the reason when the backend
 * answers but stores nothing (a full disk): reads still work, so the web tells staff, in Danish,
 * that nothing can be saved right now.
 */
export const healthRoutes = new Hono<AppEnv>().get('/', async (c) => {
  const checks = await checkDependencies(c.var.services.firebase)
  const unreachable = (['auth', 'firestore'] as const).filter((name) => checks[name] !== 'ok')
  if (unreachable.length > 0) {
    return c.json({ error: { code: 'unavailable', message: `Cannot reach ${unreachable.join(' and ')}` }, checks }, 503)
  }
  if (checks.firestoreWrites !== 'ok') {
    const reason =
      checks.firestoreWrites === 'resource_exhausted'
        ? 'Firestore refuses writes (RESOURCE_EXHAUSTED): the backend cannot store anything, e.g. its disk is full'
        : checks.firestoreWrites === 'no_answer'
          ? `Firestore answers reads but did not store a write within ${CHECK_TIMEOUT_MS / 1000} s`
          : 'Firestore answers reads but refused a write'
    return c.json({ status: 'degraded', reason, message: da.api.storageFull, checks }, 503)
  }
  return c.json({ status: 'ok', checks })
})
