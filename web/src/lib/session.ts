import { AUTH_CHECK_INTERVAL_MS, TOKEN_REFRESH_AFTER_MS } from '@bosted/domain/constants'

/** Thrown by `loadUser` when the server says the session is gone (401): the user must be cleared. */
export class SessionExpiredError extends Error {
  constructor() {
    super('session expired')
    this.name = 'SessionExpiredError'
  }
}

/**
 * Everything the session state machine does to the outside world. Injected, so the machine is a
 * pure module that tests drive with fake timers and recorded effects.
 */
export type SessionEffects<U extends { id: string }> = {
  getUser(): U | null
  /** `null` clears the user and the active location (REQ-SESSION-1: no or invalid session). */
  setUser(user: U | null): void
  /** The readable `userId` cookie; the `session` cookie itself is HttpOnly and sent by the browser. */
  readUserIdCookie(): string | null
  /** POST /api/auth/validate; rejects when the server cannot be reached. */
  validateSession(): Promise<boolean>
  /** Loads the user by id; rejects with SessionExpiredError when the session is invalid. */
  loadUser(id: string): Promise<U>
  /** POST /api/auth/refresh. */
  refreshSession(): Promise<void>
  getLastCheck(): number
  setLastCheck(ms: number): void
  now(): number
  redirectToLogin(): void
  warn(message: string, error?: unknown): void
}

export type StartResult = 'authenticated' | 'unauthenticated'

export type SessionMachine = {
  /** Runs the app-start branch of REQ-SESSION once; concurrent callers share the same run. */
  start(): Promise<StartResult>
  /** One authentication check (normally run every 30 minutes while a user is present). */
  check(): Promise<void>
  /** Stops the periodic check (on leaving the app, or when the user is cleared). */
  stop(): void
  isChecking(): boolean
}

/** The session state machine of REQ-SESSION with the timings of REQ-CONST-1. */
export function createSessionMachine<U extends { id: string }>(effects: SessionEffects<U>): SessionMachine {
  let timer: ReturnType<typeof setInterval> | null = null
  let running: Promise<StartResult> | null = null

  const stop = () => {
    if (timer !== null) clearInterval(timer)
    timer = null
  }
  const startChecks = () => {
    stop()
    timer = setInterval(() => void check(), AUTH_CHECK_INTERVAL_MS)
  }
  const signOut = (): StartResult => {
    stop()
    effects.setUser(null)
    effects.redirectToLogin()
    return 'unauthenticated'
  }

  async function check(): Promise<void> {
    if (effects.getUser() === null) {
      stop()
      return
    }
    try {
      if (!(await effects.validateSession())) {
        signOut()
        return
      }
    } catch (error) {
      // A status check that fails (network, server down) counts as still authenticated.
      effects.warn('session check failed; keeping the user', error)
    }
    const now = effects.now()
    if (now - effects.getLastCheck() > TOKEN_REFRESH_AFTER_MS) {
      try {
        await effects.refreshSession()
        effects.setLastCheck(now)
      } catch (error) {
        effects.warn('session refresh failed; ignored', error)
      }
    }
  }

  async function startWithUser(user: U): Promise<StartResult> {
    if (effects.readUserIdCookie() === null) return signOut()
    try {
      effects.setUser(await effects.loadUser(user.id))
    } catch (error) {
      if (error instanceof SessionExpiredError) effects.setUser(null)
      else effects.warn('refreshing the active user failed', error)
    }
    if (effects.getUser() === null) return signOut()
    startChecks()
    return 'authenticated'
  }

  async function startWithCookie(userId: string): Promise<StartResult> {
    try {
      if (!(await effects.validateSession())) return signOut()
    } catch (error) {
      effects.warn('session validation failed', error)
      return signOut()
    }
    try {
      effects.setUser(await effects.loadUser(userId))
    } catch (error) {
      effects.warn('loading the user failed', error)
      return signOut()
    }
    effects.setLastCheck(effects.now())
    startChecks()
    return 'authenticated'
  }

  async function run(): Promise<StartResult> {
    const user = effects.getUser()
    if (user !== null) return startWithUser(user)
    const userId = effects.readUserIdCookie()
    if (userId !== null) return startWithCookie(userId)
    return signOut()
  }

  return {
    start() {
      running ??= run().finally(() => {
        running = null
      })
      return running
    },
    check,
    stop,
    isChecking: () => timer !== null,
  }
}
