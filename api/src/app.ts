import { SESSION_COOKIE_MAX_AGE_MS } from '@bosted/domain'
import { installDanishZodErrors } from '@bosted/domain/zod-da'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { HTTPException } from 'hono/http-exception'
import { requestId } from 'hono/request-id'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { isAccountDisabled } from './lib/account.ts'
import { customTokenSigner } from './lib/custom-token.ts'
import { firestoreEndedSessions } from './lib/ended-sessions.ts'
import type { Firebase } from './lib/firebase.ts'
import { describeCause, HttpError, httpError, isResourceExhausted, isUnavailable } from './lib/http-error.ts'
import { SessionVerifier } from './lib/sessions.ts'
import { emulatorKeySource, googleKeySource, TokenVerifier } from './lib/token-verifier.ts'
import type { AppConfig, AppEnv, Services } from './lib/types.ts'
import { WriteGate } from './lib/write-gate.ts'
import { clientAddress } from './middleware/client-address.ts'
import { RateLimiter } from './middleware/rate-limit.ts'
import { sameOrigin } from './middleware/same-origin.ts'
import { writeGate } from './middleware/write-gate.ts'
import { authRoutes, passwordRoutes } from './routes/auth/auth.routes.ts'
import { healthRoutes } from './routes/health/health.routes.ts'
import { accessLogRoutes, accessLogVerifyRoutes } from './routes/person/access-log.routes.ts'
import { personRoutes } from './routes/person/person.routes.ts'
import { statisticsRoutes } from './routes/statistics/statistics.routes.ts'
import { userRoutes } from './routes/user/user.routes.ts'

export const DEFAULT_CONFIG: AppConfig = {
  cookieSecure: 'auto',
  appOrigins: [],
  trustProxy: 'loopback',
  sessionMaxAgeMs: SESSION_COOKIE_MAX_AGE_MS,
  sessionCheckCacheMs: 5_000,
  loginRateLimit: { max: 300, windowMs: 60_000 },
  accountRateLimit: { max: 10, windowMs: 60_000 },
  bodyLimitBytes: 16 * 1024,
  identityToolkit: { emulatorHost: undefined, apiKey: 'demo-api-key' },
  acceptUnsignedTokens: false,
  passwordPolicy: 'pilot',
  resetByMail: false,
}

/** How much of a refused body the api reads and throws away so its sender can read the 413. */
const DISCARD_LIMIT_BYTES = 8 * 1024 * 1024
const DISCARD_TIMEOUT_MS = 30_000

/**
 * Reads what is left of a refused request body (up to 8 MiB, 30 s) and drops it. Answering while a
 * client is still sending makes the server close the connection under it: the client sees a socket
 * reset instead of our 413 (the server's own drain gives up after 0.5 s).
 */
async function discardBody(request: Request): Promise<void> {
  if (!request.body || request.bodyUsed || request.body.locked) return
  const reader = request.body.getReader()
  const timer = setTimeout(() => void reader.cancel().catch(() => {}), DISCARD_TIMEOUT_MS)
  try {
    let read = 0
    while (read <= DISCARD_LIMIT_BYTES) {
      const { done, value } = await reader.read()
      if (done) return
      read += value.byteLength
    }
    await reader.cancel()
  } catch {
    // The client went away: nothing to answer.
  } finally {
    clearTimeout(timer)
  }
}

/** Maps what Hono itself throws (malformed requests) onto our error codes. */
function fromHonoException(error: HTTPException): HttpError {
  if (error.status === 413) return httpError('payload_too_large')
  if (error.status === 401) return httpError('unauthenticated')
  if (error.status === 403) return httpError('forbidden')
  if (error.status === 404) return httpError('not_found')
  if (error.status < 500) return new HttpError(error.status as ContentfulStatusCode, 'invalid_request')
  return httpError('internal')
}

/**
 * The api as a Hono app. Nothing here reads the environment: index.ts passes what env.ts parsed,
 * tests pass a Firebase handle on their own project.
 */
export function createApp(options: { firebase: Firebase; config?: Partial<AppConfig> }) {
  // The api's field messages (400 `fields`) in Danish, like the web's.
  installDanishZodErrors()
  const config: AppConfig = { ...DEFAULT_CONFIG, ...options.config }
  const { firebase } = options
  const emulatorHost = config.identityToolkit.emulatorHost
  const tokens = new TokenVerifier({
    projectId: firebase.projectId,
    keys: emulatorHost ? emulatorKeySource(emulatorHost) : googleKeySource({ baseUrl: config.googleKeysBaseUrl }),
    getUser: (uid) => firebase.auth.getUser(uid),
    acceptUnsignedTokens: emulatorHost !== undefined && config.acceptUnsignedTokens,
  })
  const services: Services = {
    firebase,
    config,
    tokens,
    sessions: new SessionVerifier({
      verifySessionCookie: (cookie) => tokens.verifySessionCookie(cookie),
      cacheMs: config.sessionCheckCacheMs,
      isDisabled: (uid) => isAccountDisabled(options.firebase.db, uid),
      endedStore: firestoreEndedSessions(options.firebase.db),
    }),
    createCustomToken:
      emulatorHost && config.emulatorServiceAccount
        ? customTokenSigner(config.emulatorServiceAccount)
        : (uid) => firebase.auth.createCustomToken(uid),
    loginLimiter: new RateLimiter(config.loginRateLimit),
    accountLimiter: new RateLimiter(config.accountRateLimit),
    writeGate: new WriteGate(() => options.firebase.probeWrite()),
  }

  const app = new Hono<AppEnv>()
    .use(requestId())
    .use(async (c, next) => {
      c.set('services', services)
      await next()
    })
    .use(
      '/api/*',
      bodyLimit({
        maxSize: config.bodyLimitBytes,
        onError: async (c) => {
          await discardBody(c.req.raw)
          throw httpError('payload_too_large')
        },
      }),
      clientAddress,
      sameOrigin,
    )
    // The routes that write Firestore: refused at once with 507 while the backend stores nothing.
    .use('/api/user/*', writeGate)
    .use('/api/person/*', writeGate)
    .route('/api/health', healthRoutes)
    .route('/api/auth', authRoutes)
    .route('/api/auth', passwordRoutes)
    .route('/api/user', userRoutes)
    .route('/api/person', personRoutes)
    .route('/api/person', accessLogRoutes)
    .route('/api/access-log', accessLogVerifyRoutes)
    .route('/api/statistics', statisticsRoutes)

  app.notFound((c) => c.json(httpError('not_found').toBody(), 404))
  // The one place errors leave: our HttpErrors as they are, Hono's mapped, anything else logged
  // with the request id and answered without details.
  app.onError((error, c) => {
    let known: HttpError
    if (error instanceof HttpError) known = error
    else if (error instanceof HTTPException) known = fromHonoException(error)
    else if (isUnavailable(error)) {
      // For operators: which dependency failed and how (names no person: codes, names, URLs).
      console.warn(
        `[api] ${c.var.requestId} ${c.req.method} ${c.req.path}: backend unavailable: ${describeCause(error)}`,
      )
      known = httpError('unavailable')
    } else if (isResourceExhausted(error)) {
      console.error(`[api] ${c.var.requestId} ${c.req.method} ${c.req.path}: the backend cannot store writes`)
      known = httpError('storage_full')
    } else {
      console.error(`[api] ${c.var.requestId} ${c.req.method} ${c.req.path} failed:`, error)
      known = httpError('internal')
    }
    return c.json(known.toBody(), known.status, known.headers)
  })
  return app
}

export type App = ReturnType<typeof createApp>
