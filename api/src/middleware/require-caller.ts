import type { MiddlewareHandler } from 'hono'
import type { Caller } from '../lib/access.ts'
import { loadCaller } from '../lib/caller.ts'
import { httpError } from '../lib/http-error.ts'
import { mustChangePassword } from '../lib/passwords.ts'
import type { AppEnv } from '../lib/types.ts'

export type CallerEnv = AppEnv & { Variables: { caller: Caller } }

/**
 * 403 `forbidden` unless the caller (fresh claims + user document) passes `allows`; after requireSession.
 * An account holding a temporary password gets 403 `password_change_required` until it chose its
 * own, except on routes that say `whilePasswordChangeRequired` (reading one's own claims).
 */
export const requireCaller =
  (
    allows: (caller: Caller) => boolean,
    options: { whilePasswordChangeRequired?: boolean } = {},
  ): MiddlewareHandler<CallerEnv> =>
  async (c, next) => {
    const caller = await loadCaller(c.var.services.firebase, c.var.session.uid)
    if (mustChangePassword(caller.claims) && options.whilePasswordChangeRequired !== true) {
      throw httpError('password_change_required')
    }
    if (!allows(caller)) throw httpError('forbidden')
    c.set('caller', caller)
    await next()
  }
