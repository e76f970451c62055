import type { MiddlewareHandler } from 'hono'
import { httpError } from '../lib/http-error.ts'
import type { AppEnv } from '../lib/types.ts'

/**
 * Answers a write request (anything but GET/HEAD) with 507 `storage_full` and the Danish message
 * at once while the backend stores nothing, instead of letting it wait on firebase-admin, which
 * retries a refused commit for up to ten minutes. Nothing was attempted, so "not saved" is true.
 */
export const writeGate: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && (await c.var.services.writeGate.isFull())) {
    throw httpError('storage_full')
  }
  await next()
}
