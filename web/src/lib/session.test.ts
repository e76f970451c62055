import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { createSessionMachine, type SessionEffects, SessionExpiredError } from './session.ts'

type User = { id: string; firstName: string }
const MINUTE = 60 * 1000

function setup(
  overrides: Partial<SessionEffects<User>> = {},
  initial: { user?: User | null; cookie?: string | null } = {},
) {
  const state = {
    user: initial.user ?? null,
    cookie: initial.cookie === undefined ? 'u1' : initial.cookie,
    lastCheck: Date.now(),
  }
  const effects = {
    getUser: () => state.user,
    setUser: vi.fn((user: User | null) => {
      state.user = user
    }),
    readUserIdCookie: () => state.cookie,
    validateSession: vi.fn(async () => true),
    loadUser: vi.fn(async (id: string) => ({ id, firstName: 'Fresh' })),
    refreshSession: vi.fn(async () => {}),
    getLastCheck: () => state.lastCheck,
    setLastCheck: vi.fn((ms: number) => {
      state.lastCheck = ms
    }),
    now: () => Date.now(),
    redirectToLogin: vi.fn(),
    warn: vi.fn(),
    ...overrides,
  } satisfies SessionEffects<User>
  return { state, effects, machine: createSessionMachine(effects) }
}

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-03-02T08:00:00Z') })
})
afterEach(() => {
  vi.useRealTimers()
})

test('starting with an active user refreshes that user by id and starts the 30-minute check', async () => {
  const { effects, machine, state } = setup({}, { user: { id: 'u1', firstName: 'Stale' } })
  expect(await machine.start()).toBe('authenticated')
  expect(effects.loadUser).toHaveBeenCalledWith('u1')
  expect(state.user).toEqual({ id: 'u1', firstName: 'Fresh' })
  expect(machine.isChecking()).toBe(true)
  expect(effects.validateSession).not.toHaveBeenCalled()
  await vi.advanceTimersByTimeAsync(30 * MINUTE - 1)
  expect(effects.validateSession).not.toHaveBeenCalled()
  await vi.advanceTimersByTimeAsync(1)
  expect(effects.validateSession).toHaveBeenCalledTimes(1)
  await vi.advanceTimersByTimeAsync(30 * MINUTE)
  expect(effects.validateSession).toHaveBeenCalledTimes(2)
  expect(effects.redirectToLogin).not.toHaveBeenCalled()
})

test('starting with an active user keeps it when the refresh fails for a reason other than the session', async () => {
  const { effects, machine, state } = setup(
    { loadUser: vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))) },
    { user: { id: 'u1', firstName: 'Stale' } },
  )
  expect(await machine.start()).toBe('authenticated')
  expect(state.user).toEqual({ id: 'u1', firstName: 'Stale' })
  expect(effects.warn).toHaveBeenCalled()
  expect(machine.isChecking()).toBe(true)
})

test('starting with an active user goes to /login when the refresh fails and no user remains', async () => {
  const { effects, machine, state } = setup(
    { loadUser: vi.fn(async () => Promise.reject(new SessionExpiredError())) },
    { user: { id: 'u1', firstName: 'Stale' } },
  )
  expect(await machine.start()).toBe('unauthenticated')
  expect(state.user).toBeNull()
  expect(effects.redirectToLogin).toHaveBeenCalledTimes(1)
  expect(machine.isChecking()).toBe(false)
})

test('starting with an active user but without the session cookies clears the user and goes to /login', async () => {
  const { effects, machine, state } = setup({}, { user: { id: 'u1', firstName: 'Stale' }, cookie: null })
  expect(await machine.start()).toBe('unauthenticated')
  expect(state.user).toBeNull()
  expect(effects.loadUser).not.toHaveBeenCalled()
  expect(effects.redirectToLogin).toHaveBeenCalledTimes(1)
})

test('starting without a user but with cookies validates the session, then loads the user by userId', async () => {
  const { effects, machine, state } = setup({}, { cookie: 'u7' })
  expect(await machine.start()).toBe('authenticated')
  expect(effects.validateSession).toHaveBeenCalledTimes(1)
  expect(effects.loadUser).toHaveBeenCalledWith('u7')
  expect(state.user).toEqual({ id: 'u7', firstName: 'Fresh' })
  expect(effects.setLastCheck).toHaveBeenCalledWith(Date.now())
  expect(machine.isChecking()).toBe(true)
})

test('starting without a user and with an invalid session goes to /login', async () => {
  const { effects, machine, state } = setup({ validateSession: vi.fn(async () => false) }, { cookie: 'u7' })
  expect(await machine.start()).toBe('unauthenticated')
  expect(effects.loadUser).not.toHaveBeenCalled()
  expect(state.user).toBeNull()
  expect(effects.setUser).toHaveBeenCalledWith(null)
  expect(effects.redirectToLogin).toHaveBeenCalledTimes(1)
})

test('starting without a user goes to /login when the validation itself fails, and logs it', async () => {
  const { effects, machine } = setup({ validateSession: vi.fn(async () => Promise.reject(new Error('502'))) })
  expect(await machine.start()).toBe('unauthenticated')
  expect(effects.warn).toHaveBeenCalledWith('session validation failed', expect.any(Error))
  expect(effects.redirectToLogin).toHaveBeenCalledTimes(1)
})

test('starting without a user goes to /login when the user cannot be loaded', async () => {
  const { effects, machine } = setup({ loadUser: vi.fn(async () => Promise.reject(new Error('boom'))) })
  expect(await machine.start()).toBe('unauthenticated')
  expect(effects.redirectToLogin).toHaveBeenCalledTimes(1)
  expect(machine.isChecking()).toBe(false)
})

test('starting without cookies goes straight to /login', async () => {
  const { effects, machine } = setup({}, { cookie: null })
  expect(await machine.start()).toBe('unauthenticated')
  expect(effects.validateSession).not.toHaveBeenCalled()
  expect(effects.redirectToLogin).toHaveBeenCalledTimes(1)
})

test('concurrent starts share one run', async () => {
  const { effects, machine } = setup()
  const [a, b] = await Promise.all([machine.start(), machine.start()])
  expect([a, b]).toEqual(['authenticated', 'authenticated'])
  expect(effects.validateSession).toHaveBeenCalledTimes(1)
})

test('the check refreshes the session only when over 60 minutes have passed since the last check', async () => {
  const { effects, machine, state } = setup()
  await machine.start()
  await vi.advanceTimersByTimeAsync(30 * MINUTE)
  expect(effects.refreshSession).not.toHaveBeenCalled()
  await vi.advanceTimersByTimeAsync(30 * MINUTE)
  // exactly 60 minutes is not "over" 60 minutes
  expect(effects.refreshSession).not.toHaveBeenCalled()
  await vi.advanceTimersByTimeAsync(30 * MINUTE)
  expect(effects.refreshSession).toHaveBeenCalledTimes(1)
  expect(state.lastCheck).toBe(Date.now())
  await vi.advanceTimersByTimeAsync(60 * MINUTE)
  expect(effects.refreshSession).toHaveBeenCalledTimes(1)
  await vi.advanceTimersByTimeAsync(30 * MINUTE)
  expect(effects.refreshSession).toHaveBeenCalledTimes(2)
})

test('a refresh after a long pause (sleeping laptop) happens at the next check', async () => {
  const { effects, machine, state } = setup()
  await machine.start()
  state.lastCheck = Date.now() - 61 * MINUTE
  await machine.check()
  expect(effects.refreshSession).toHaveBeenCalledTimes(1)
})

test('a failing refresh is ignored: the user stays and the next check tries again', async () => {
  const { effects, machine, state } = setup({ refreshSession: vi.fn(async () => Promise.reject(new Error('500'))) })
  await machine.start()
  state.lastCheck = Date.now() - 61 * MINUTE
  await vi.advanceTimersByTimeAsync(30 * MINUTE)
  expect(effects.refreshSession).toHaveBeenCalledTimes(1)
  expect(state.user).not.toBeNull()
  expect(effects.redirectToLogin).not.toHaveBeenCalled()
  await vi.advanceTimersByTimeAsync(30 * MINUTE)
  expect(effects.refreshSession).toHaveBeenCalledTimes(2)
})

test('a failed status check counts as still authenticated', async () => {
  const validateSession = vi.fn(async () => true)
  const { effects, machine, state } = setup({ validateSession })
  await machine.start()
  validateSession.mockRejectedValue(new TypeError('Failed to fetch'))
  await vi.advanceTimersByTimeAsync(30 * MINUTE)
  expect(state.user).not.toBeNull()
  expect(effects.redirectToLogin).not.toHaveBeenCalled()
  expect(machine.isChecking()).toBe(true)
})

test('a check that finds the session invalid clears the user, stops checking and goes to /login', async () => {
  const validateSession = vi.fn(async () => true)
  const { effects, machine, state } = setup({ validateSession })
  await machine.start()
  validateSession.mockResolvedValue(false)
  await vi.advanceTimersByTimeAsync(30 * MINUTE)
  expect(state.user).toBeNull()
  expect(effects.redirectToLogin).toHaveBeenCalledTimes(1)
  expect(machine.isChecking()).toBe(false)
  await vi.advanceTimersByTimeAsync(60 * MINUTE)
  expect(validateSession).toHaveBeenCalledTimes(2)
})

test('the check stops once the user is gone', async () => {
  const { effects, machine, state } = setup()
  await machine.start()
  state.user = null
  await vi.advanceTimersByTimeAsync(30 * MINUTE)
  expect(machine.isChecking()).toBe(false)
  expect(effects.validateSession).toHaveBeenCalledTimes(1)
})

test('stop() ends the periodic check (leaving the app)', async () => {
  const { effects, machine } = setup()
  await machine.start()
  machine.stop()
  await vi.advanceTimersByTimeAsync(120 * MINUTE)
  expect(effects.validateSession).toHaveBeenCalledTimes(1)
  expect(machine.isChecking()).toBe(false)
})
