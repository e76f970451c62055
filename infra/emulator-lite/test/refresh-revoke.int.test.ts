// One device's sign-out (issue 32 point 8, docs/decisions/0025-words.md): the api asks the admin
// listener to revoke the refresh token the signing-out browser held. That token stops refreshing;
// the same account's other devices carry on. Privileged only, refused on the public Auth listener,
// and the answer says nothing about whether the token was known.
import { afterEach, describe, expect, test } from 'vitest'
import { type EmulatorLite, startEmulatorLite } from '../src/index.ts'

const PROJECT = 'demo-revoke'
const REVOKE = `/emulator/v1/projects/${PROJECT}/refreshTokens:revoke`
const OWNER = { authorization: 'Bearer owner' }
let emulator: EmulatorLite | undefined
afterEach(async () => {
  await emulator?.close()
  emulator = undefined
})

const post = (port: number, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })

async function start(): Promise<EmulatorLite> {
  emulator = await startEmulatorLite({
    firestorePort: 0,
    storagePort: 0,
    authPort: 0,
    adminPort: 0,
    inMemory: true,
    authProjectId: PROJECT,
  })
  const created = await post(
    emulator.adminPort,
    `/identitytoolkit.googleapis.com/v1/projects/${PROJECT}/accounts`,
    { email: 'staff@example.dk', password: 'a-long-password-1' },
    OWNER,
  )
  expect(created.status).toBe(200)
  return emulator
}

async function signIn(lite: EmulatorLite): Promise<string> {
  const response = await post(lite.authPort, '/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=k', {
    email: 'staff@example.dk',
    password: 'a-long-password-1',
    returnSecureToken: true,
  })
  expect(response.status).toBe(200)
  return ((await response.json()) as { refreshToken: string }).refreshToken
}

/** What the web SDK's refresh gets: 'ok' or Auth's error message. */
async function refresh(lite: EmulatorLite, refreshToken: string): Promise<string> {
  const response = await post(lite.authPort, '/securetoken.googleapis.com/v1/token?key=k', {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
  })
  if (response.ok) return 'ok'
  return ((await response.json()) as { error: { message: string } }).error.message
}

describe('POST /emulator/v1/projects/{p}/refreshTokens:revoke', () => {
  test("ends one device's refresh token and leaves the account's other devices signed in", async () => {
    const lite = await start()
    const office = await signIn(lite)
    const tablet = await signIn(lite)
    const answer = await post(lite.adminPort, REVOKE, { refreshToken: office }, OWNER)
    expect(answer.status).toBe(200)
    expect(await answer.json()).toEqual({})
    expect(await refresh(lite, office)).toBe('TOKEN_EXPIRED')
    expect(await refresh(lite, tablet)).toBe('ok')
    // Again: the same answer, and nothing changes.
    const again = await post(lite.adminPort, REVOKE, { refreshToken: office }, OWNER)
    expect(again.status).toBe(200)
    expect(await again.json()).toEqual({})
    expect(await refresh(lite, tablet)).toBe('ok')
  })

  test('an unknown token, or one of another project, gets the same 200 and revokes nothing', async () => {
    const lite = await start()
    const token = await signIn(lite)
    const unknown = await post(lite.adminPort, REVOKE, { refreshToken: `${token}x` }, OWNER)
    expect(unknown.status).toBe(200)
    expect(await unknown.json()).toEqual({})
    const elsewhere = await post(
      lite.adminPort,
      '/emulator/v1/projects/another-project/refreshTokens:revoke',
      { refreshToken: token },
      OWNER,
    )
    expect(elsewhere.status).toBe(200)
    expect(await elsewhere.json()).toEqual({})
    expect(await refresh(lite, token)).toBe('ok')
  })

  test('refused without privilege: on the public Auth listener (even with owner) and anonymously on the admin one', async () => {
    const lite = await start()
    const token = await signIn(lite)
    for (const [port, headers] of [
      [lite.authPort, {}],
      [lite.authPort, OWNER],
      [lite.adminPort, {}],
    ] as const) {
      const response = await post(port, REVOKE, { refreshToken: token }, headers)
      expect(response.status, `${port} ${JSON.stringify(headers)}`).toBe(403)
    }
    expect(await refresh(lite, token)).toBe('ok')
    // The admin secret is privileged on every listener.
    const withSecret = await post(
      lite.authPort,
      REVOKE,
      { refreshToken: token },
      { authorization: `Bearer ${lite.adminSecret}` },
    )
    expect(withSecret.status).toBe(200)
    expect(await refresh(lite, token)).toBe('TOKEN_EXPIRED')
  })

  test('a missing, non-string or oversized token is a 400', async () => {
    const lite = await start()
    for (const body of [{}, { refreshToken: '' }, { refreshToken: { a: 1 } }, { refreshToken: 'x'.repeat(4097) }]) {
      const response = await post(lite.adminPort, REVOKE, body, OWNER)
      expect(response.status, JSON.stringify(body).slice(0, 40)).toBe(400)
    }
  })
})
