import type { MiddlewareHandler } from 'hono'
import type { Caller } from '../lib/access.ts'
import { loadCaller } from '../lib/caller.ts'
import { httpError } from '../lib/http-error.ts'
import type { AppEnv } from '../lib/types.ts'

export type CallerEnv = AppEnv & { Variables: { caller: Caller } }

/** 403 `forbidden` unless the caller (fresh claims + user document) passes `allows`; after requireSession. */
export const requireCaller =
  (allows: (caller: Caller) => boolean): MiddlewareHandler<CallerEnv> =>
  async (c, next) => {
    const caller = await loadCaller(c.var.services.firebase, c.var.session.uid)
    if (!allows(caller)) throw httpError('forbidden')
    c.set('caller', caller)
    await next()
  }
