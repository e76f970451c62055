import { isDeepStrictEqual } from 'node:util'
import type { Auth, UserRecord } from 'firebase-admin/auth'
import { chunk, mapLimit } from '../lib/concurrency.ts'
import type { PlannedAuthUser } from '../plan/build-dataset.ts'
import type { StepResult } from './step.ts'

/**
 * Auth users with fixed uids (a person's uid is its document id). Missing users are created with
 * the demo password; existing ones only get their email, name or claims corrected, so a second run
 * changes nothing (and never resets a password someone changed — `--reset` does that).
 */
export async function syncAuthUsers(auth: Auth, planned: readonly PlannedAuthUser[]): Promise<StepResult> {
  const started = Date.now()
  const existing = new Map<string, UserRecord>()
  for (const uids of chunk(
    planned.map((user) => user.uid),
    100,
  )) {
    const result = await auth.getUsers(uids.map((uid) => ({ uid })))
    for (const user of result.users) existing.set(user.uid, user)
  }
  let written = 0
  await mapLimit(planned, 8, async (user) => {
    const current = existing.get(user.uid)
    const claims = user.customClaims ?? {}
    if (!current) {
      await auth
        .createUser({ uid: user.uid, email: user.email, password: user.password, displayName: user.displayName })
        .catch((error: { code?: string; message?: string }) => {
          throw new Error(`could not create the auth user ${user.email} (${user.uid}): ${error.code ?? error.message}`)
        })
      if (user.customClaims) await auth.setCustomUserClaims(user.uid, user.customClaims)
      written += 1
      return
    }
    let changed = false
    if (current.email !== user.email || current.displayName !== user.displayName || current.disabled) {
      await auth.updateUser(user.uid, { email: user.email, displayName: user.displayName, disabled: false })
      changed = true
    }
    if (!isDeepStrictEqual(current.customClaims ?? {}, claims)) {
      await auth.setCustomUserClaims(user.uid, user.customClaims)
      changed = true
    }
    if (changed) written += 1
  })
  return {
    name: 'auth users',
    total: planned.length,
    written,
    unchanged: planned.length - written,
    ms: Date.now() - started,
  }
}
