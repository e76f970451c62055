import { Hono } from 'hono'
import type { Firebase } from '../../lib/firebase.ts'
import type { AppEnv } from '../../lib/types.ts'

const CHECK_TIMEOUT_MS = 2_000

/** Resolves 'ok', or 'unreachable' on any error or after the timeout (firebase-admin retries for long). */
async function probe(check: () => Promise<unknown>): Promise<'ok' | 'unreachable'> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<'unreachable'>((resolve) => {
    timer = setTimeout(() => resolve('unreachable'), CHECK_TIMEOUT_MS)
  })
  try {
    return await Promise.race([check().then(() => 'ok' as const), timeout])
  } catch {
    return 'unreachable'
  } finally {
    clearTimeout(timer)
  }
}

export async function checkDependencies(firebase: Firebase) {
  const [auth, firestore] = await Promise.all([
    // Any answer from Auth proves it is reachable; an unknown uid is the cheapest question.
    probe(() =>
      firebase.auth.getUser('health-check').catch((error: { code?: unknown }) => {
        if (error.code !== 'auth/user-not-found') throw error
      }),
    ),
    probe(() => firebase.db.collection('health').doc('probe').get()),
  ])
  return { auth, firestore }
}

/** 200 when Auth and Firestore answer, otherwise 503 `unavailable` naming what did not (for operators, in English). */
export const healthRoutes = new Hono<AppEnv>().get('/', async (c) => {
  const checks = await checkDependencies(c.var.services.firebase)
  const unreachable = Object.entries(checks)
    .filter(([, state]) => state !== 'ok')
    .map(([name]) => name)
  if (unreachable.length === 0) return c.json({ status: 'ok', checks })
  return c.json({ error: { code: 'unavailable', message: `Cannot reach ${unreachable.join(' and ')}` }, checks }, 503)
})
