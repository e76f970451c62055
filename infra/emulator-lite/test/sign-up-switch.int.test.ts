// A pilot (issue 31 point 3): nobody signs themselves up. With `disableSignUp` the browser-facing
// Auth listener refuses accounts:signUp (with a password, anonymous, and through the legacy v3 name)
// and creates nothing; the admin listener, where the api works, still creates accounts, and those
// sign in on the public listener. Without the switch the public listener signs up as before.
import { afterEach, describe, expect, test } from 'vitest'
import { type EmulatorLite, startEmulatorLite } from '../src/index.ts'

const PROJECT = 'demo-sign-up'
let emulator: EmulatorLite | undefined
afterEach(async () => {
  await emulator?.close()
  emulator = undefined
})

const start = async (disableSignUp: boolean) => {
  emulator = await startEmulatorLite({
    firestorePort: 0,
    storagePort: 0,
    authPort: 0,
    adminPort: 0,
    inMemory: true,
    authProjectId: PROJECT,
    disableSignUp,
  })
  return emulator
}

const post = (port: number, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })

async function accountCount(lite: EmulatorLite): Promise<number> {
  const response = await post(
    lite.adminPort,
    `/identitytoolkit.googleapis.com/v1/projects/${PROJECT}/accounts:query`,
    { returnUserInfo: false },
    { authorization: 'Bearer owner' },
  )
  expect(response.status).toBe(200)
  return Number(((await response.json()) as { recordsCount?: string }).recordsCount ?? 0)
}

const SIGN_UP = '/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k'
const LEGACY_SIGN_UP = '/www.googleapis.com/identitytoolkit/v3/relyingparty/signupNewUser?key=k'

describe('--disable-sign-up', () => {
  test('the public listener refuses every self sign-up and creates nothing', async () => {
    const lite = await start(true)
    for (const [path, body] of [
      [SIGN_UP, { email: 'self@example.dk', password: 'a-long-password-1', returnSecureToken: true }],
      [SIGN_UP, { returnSecureToken: true }],
      [LEGACY_SIGN_UP, { email: 'legacy@example.dk', password: 'a-long-password-1' }],
    ] as const) {
      const response = await post(lite.authPort, path, body)
      expect(response.status, path).toBe(400)
      expect(((await response.json()) as { error: { message: string } }).error.message).toBe('ADMIN_ONLY_OPERATION')
    }
    expect(await accountCount(lite)).toBe(0)
  })

  test('the admin listener still creates accounts, and they sign in on the public listener', async () => {
    const lite = await start(true)
    const created = await post(
      lite.adminPort,
      `/identitytoolkit.googleapis.com/v1/projects/${PROJECT}/accounts`,
      { email: 'made@example.dk', password: 'a-long-password-1' },
      { authorization: 'Bearer owner' },
    )
    expect(created.status).toBe(200)
    const signIn = await post(lite.authPort, '/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=k', {
      email: 'made@example.dk',
      password: 'a-long-password-1',
      returnSecureToken: true,
    })
    expect(signIn.status).toBe(200)
    expect(await accountCount(lite)).toBe(1)
  })

  test('without the switch the public listener signs up as before', async () => {
    const lite = await start(false)
    const response = await post(lite.authPort, SIGN_UP, { returnSecureToken: true })
    expect(response.status).toBe(200)
    expect(await accountCount(lite)).toBe(1)
  })
})
