import {
  createUserWithEmailAndPassword,
  getAdditionalUserInfo,
  getIdTokenResult,
  reload,
  signInAnonymously,
  signInWithCustomToken,
  signInWithEmailAndPassword,
  signOut,
  updatePassword,
  updateProfile,
} from 'firebase/auth'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import {
  type AuthClients,
  type AuthTarget,
  call,
  claimsOf,
  connectAuthClients,
  customTokenFor,
  errorCode,
  nextSecond,
  startAuthTarget,
  TARGET_NAMES,
  verifyAsAdmin,
} from './auth-support.ts'

// The same behaviours, driven through the official SDKs, against emulator-lite's Auth and the
// official Auth emulator from firebase-tools: both must give the same answers and error codes.
const PROJECT = 'demo-auth-conformance'
const IT = '/identitytoolkit.googleapis.com/v1'

describe.each(TARGET_NAMES)('%s', (name) => {
  let target: AuthTarget
  let sdk: AuthClients

  beforeAll(async () => {
    target = await startAuthTarget(name, PROJECT)
    sdk = connectAuthClients(target)
  })
  afterAll(async () => {
    await sdk?.close()
    await target?.close()
  })
  beforeEach(async () => {
    process.env.FIREBASE_AUTH_EMULATOR_HOST = target.adminHost
    await signOut(sdk.web)
    await call(target, 'DELETE', `/emulator/v1/projects/${PROJECT}/accounts`)
    await call(target, 'PATCH', `/emulator/v1/projects/${PROJECT}/config`, {
      body: { emailPrivacyConfig: { enableImprovedEmailPrivacy: false } },
    })
  })

  const webError = (promise: Promise<unknown>) => promise.then(() => 'no error', errorCode)

  test('a person signs up, signs out and signs in again with the email in other letter case', async () => {
    const created = await createUserWithEmailAndPassword(sdk.web, 'Anna@Example.DK', 'hemmelig1')
    expect(getAdditionalUserInfo(created)?.isNewUser).toBe(true)
    expect(created.user.email).toBe('anna@example.dk')
    expect(created.user.isAnonymous).toBe(false)
    expect(created.user.providerData.map((info) => info.providerId)).toEqual(['password'])
    await signOut(sdk.web)
    const signedIn = await signInWithEmailAndPassword(sdk.web, 'ANNA@example.dk', 'hemmelig1')
    expect(signedIn.user.uid).toBe(created.user.uid)
    expect(getAdditionalUserInfo(signedIn)?.isNewUser).toBe(false)
    const token = await signedIn.user.getIdToken()
    const [header, , signature] = token.split('.')
    if (target.signed) {
      // Deliberate difference: emulator-lite signs (RS256, with the kid of its published key).
      expect(Object.keys(claimsOf(`x.${header}.`))).toEqual(['alg', 'kid', 'typ'])
      expect(claimsOf(`x.${header}.`)).toMatchObject({ alg: 'RS256', typ: 'JWT' })
      expect(signature).toMatch(/^[A-Za-z0-9_-]{300,}$/)
    } else {
      expect(token.startsWith('eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.')).toBe(true)
      expect(token.endsWith('.')).toBe(true)
    }
    const claims = claimsOf(token)
    expect(Object.keys(claims)).toEqual([
      'email',
      'email_verified',
      'auth_time',
      'user_id',
      'firebase',
      'iat',
      'exp',
      'aud',
      'iss',
      'sub',
    ])
    expect(claims).toMatchObject({
      email: 'anna@example.dk',
      email_verified: false,
      user_id: created.user.uid,
      sub: created.user.uid,
      aud: PROJECT,
      iss: `https://securetoken.google.com/${PROJECT}`,
      firebase: { identities: { email: ['anna@example.dk'] }, sign_in_provider: 'password' },
    })
    expect((claims.exp as number) - (claims.iat as number)).toBe(3600)
  })

  test('sign-in failures give the codes the app maps to Danish messages', async () => {
    await sdk.admin.createUser({ uid: 'alice', email: 'alice@example.dk', password: 'rigtig123' })
    await sdk.admin.createUser({ uid: 'dis', email: 'dis@example.dk', password: 'rigtig123', disabled: true })
    await sdk.admin.createUser({ uid: 'nopw', email: 'nopw@example.dk' })
    expect(await webError(signInWithEmailAndPassword(sdk.web, 'alice@example.dk', 'forkert1'))).toBe(
      'auth/wrong-password',
    )
    expect(await webError(signInWithEmailAndPassword(sdk.web, 'ukendt@example.dk', 'rigtig123'))).toBe(
      'auth/user-not-found',
    )
    expect(await webError(signInWithEmailAndPassword(sdk.web, 'dis@example.dk', 'forkert1'))).toBe('auth/user-disabled')
    expect(await webError(signInWithEmailAndPassword(sdk.web, 'not-an-email', 'rigtig123'))).toBe('auth/invalid-email')
    expect(await webError(signInWithEmailAndPassword(sdk.web, 'alice@example.dk', ''))).toBe('auth/missing-password')
    expect(await webError(signInWithEmailAndPassword(sdk.web, 'nopw@example.dk', 'rigtig123'))).toBe(
      'auth/wrong-password',
    )
  })

  test('with email-enumeration protection on, wrong password and unknown email look the same', async () => {
    const config = await call(target, 'PATCH', `/emulator/v1/projects/${PROJECT}/config`, {
      body: { emailPrivacyConfig: { enableImprovedEmailPrivacy: true } },
    })
    expect(config.body).toEqual({
      signIn: { allowDuplicateEmails: false },
      emailPrivacyConfig: { enableImprovedEmailPrivacy: true },
    })
    await sdk.admin.createUser({ uid: 'alice', email: 'alice@example.dk', password: 'rigtig123' })
    await sdk.admin.createUser({ uid: 'dis', email: 'dis@example.dk', password: 'rigtig123', disabled: true })
    expect(await webError(signInWithEmailAndPassword(sdk.web, 'alice@example.dk', 'forkert1'))).toBe(
      'auth/invalid-credential',
    )
    expect(await webError(signInWithEmailAndPassword(sdk.web, 'ukendt@example.dk', 'rigtig123'))).toBe(
      'auth/invalid-credential',
    )
    expect(await webError(signInWithEmailAndPassword(sdk.web, 'dis@example.dk', 'forkert1'))).toBe('auth/user-disabled')
    const unchanged = await call(target, 'PATCH', `/emulator/v1/projects/${PROJECT}/config`, {
      body: { signIn: { allowDuplicateEmails: false } },
    })
    expect(unchanged.body).toEqual(config.body)
  })

  test('the default project config has email-enumeration protection off', async () => {
    const config = await call(target, 'GET', `/emulator/v1/projects/${PROJECT}/config`)
    expect(config).toMatchObject({
      status: 200,
      body: { signIn: { allowDuplicateEmails: false }, emailPrivacyConfig: { enableImprovedEmailPrivacy: false } },
    })
  })

  test('custom claims set by admin appear at the top level of the next refreshed ID token', async () => {
    const { user } = await createUserWithEmailAndPassword(sdk.web, 'claims@example.dk', 'hemmelig1')
    await sdk.admin.setCustomUserClaims(user.uid, { role: 'admin', locations: ['a', 'b'] })
    expect(claimsOf(await user.getIdToken())).not.toHaveProperty('role')
    const refreshed = await getIdTokenResult(user, true)
    expect(refreshed.claims.role).toBe('admin')
    expect(refreshed.claims.locations).toEqual(['a', 'b'])
    expect(refreshed.signInProvider).toBe('password')
    expect((await sdk.admin.getUser(user.uid)).customClaims).toEqual({ role: 'admin', locations: ['a', 'b'] })
    await sdk.admin.setCustomUserClaims(user.uid, null)
    expect((await getIdTokenResult(user, true)).claims).not.toHaveProperty('role')
    expect((await sdk.admin.getUser(user.uid)).customClaims).toEqual({})
  })

  test('a signed-in person updates name, photo and password', async () => {
    const { user } = await createUserWithEmailAndPassword(sdk.web, 'profil@example.dk', 'hemmelig1')
    await updateProfile(user, { displayName: 'Profil Person', photoURL: 'https://example.dk/p.png' })
    await reload(user)
    expect(user.displayName).toBe('Profil Person')
    expect(user.photoURL).toBe('https://example.dk/p.png')
    expect(claimsOf(await user.getIdToken(true))).toMatchObject({
      name: 'Profil Person',
      picture: 'https://example.dk/p.png',
    })
    expect(await webError(updatePassword(user, 'kort'))).toBe('auth/weak-password')
    await updatePassword(user, 'nyt-hemmeligt')
    await signOut(sdk.web)
    expect(await webError(signInWithEmailAndPassword(sdk.web, 'profil@example.dk', 'hemmelig1'))).toBe(
      'auth/wrong-password',
    )
    const again = await signInWithEmailAndPassword(sdk.web, 'profil@example.dk', 'nyt-hemmeligt')
    expect(again.user.displayName).toBe('Profil Person')
  })

  test('admin creates, reads, updates, disables and deletes users', async () => {
    const created = await sdk.admin.createUser({
      uid: 'bo',
      email: 'Bo@Example.DK',
      password: 'hemmelig1',
      displayName: 'Bo',
    })
    expect(created).toMatchObject({
      uid: 'bo',
      email: 'bo@example.dk',
      displayName: 'Bo',
      disabled: false,
      emailVerified: false,
    })
    expect(created.providerData.map((info) => info.providerId)).toEqual(['password'])
    expect(created.metadata.creationTime).toBeTruthy()
    expect((await sdk.admin.getUserByEmail('BO@example.dk')).uid).toBe('bo')
    const users = await sdk.admin.getUsers([{ uid: 'bo' }, { uid: 'ingen' }, { email: 'bo@example.dk' }])
    expect(users.users.map((user) => user.uid)).toEqual(['bo'])
    expect(users.notFound).toEqual([{ uid: 'ingen' }])

    const updated = await sdk.admin.updateUser('bo', { displayName: 'Bo B', disabled: true, emailVerified: true })
    expect(updated).toMatchObject({ displayName: 'Bo B', disabled: true, emailVerified: true })
    expect((await sdk.admin.updateUser('bo', { disabled: false })).disabled).toBe(false)
    expect((await sdk.admin.updateUser('bo', { displayName: null })).displayName).toBeUndefined()
    const withoutPassword = await sdk.admin.createUser({ uid: 'emailonly', email: 'emailonly@example.dk' })
    expect(withoutPassword.providerData).toEqual([])

    expect(await webError(sdk.admin.createUser({ email: 'bo@example.dk', password: 'hemmelig1' }))).toBe(
      'auth/email-already-exists',
    )
    expect(await webError(sdk.admin.createUser({ uid: 'bo' }))).toBe('auth/uid-already-exists')
    expect(await webError(sdk.admin.updateUser('bo', { email: 'emailonly@example.dk' }))).toBe(
      'auth/email-already-exists',
    )
    await sdk.admin.deleteUser('bo')
    expect(await webError(sdk.admin.getUser('bo'))).toBe('auth/user-not-found')
    expect(await webError(sdk.admin.getUserByEmail('bo@example.dk'))).toBe('auth/user-not-found')
    expect(await webError(sdk.admin.updateUser('bo', { displayName: 'x' }))).toBe('auth/user-not-found')
    expect(await webError(sdk.admin.deleteUser('bo'))).toBe('auth/user-not-found')
  })

  test('listUsers pages through every user in uid order', async () => {
    const uids = ['u-3', 'U-1', 'u-0', 'u-2', 'a-9']
    for (const uid of uids) await sdk.admin.createUser({ uid, email: `${uid}@example.dk` })
    const pages: string[][] = []
    let pageToken: string | undefined
    do {
      const page = await sdk.admin.listUsers(2, pageToken)
      pages.push(page.users.map((user) => user.uid))
      pageToken = page.pageToken
    } while (pageToken)
    expect(pages).toEqual([['U-1', 'a-9'], ['u-0', 'u-2'], ['u-3']])
    const all = await sdk.admin.listUsers()
    expect(all.users).toHaveLength(5)
    expect(all.pageToken).toBeUndefined()
    const count = await call(target, 'POST', `${IT}/projects/${PROJECT}/accounts:query`, {
      body: { returnUserInfo: false },
      headers: { authorization: 'Bearer owner' },
    })
    expect(count.body).toEqual({ recordsCount: '5' })
  })

  test('a custom token from admin signs in, creating the user once, with its claims in the ID token', async () => {
    const token = await customTokenFor(target, sdk.admin, 'kunde-1', { plan: 'pro', level: 2 })
    if (target.signed) {
      // Deliberate difference: firebase-admin's unsigned custom token (emulator mode) is refused.
      const unsigned = await sdk.admin.createCustomToken('kunde-1', { plan: 'pro', level: 2 })
      expect(await webError(signInWithCustomToken(sdk.web, unsigned))).toBe('auth/invalid-custom-token')
    }
    const first = await signInWithCustomToken(sdk.web, token)
    expect(getAdditionalUserInfo(first)?.isNewUser).toBe(true)
    const result = await getIdTokenResult(first.user, true)
    expect(result.signInProvider).toBe('custom')
    expect(result.claims).toMatchObject({ plan: 'pro', level: 2, user_id: 'kunde-1', firebase: { identities: {} } })
    await signOut(sdk.web)
    const second = await signInWithCustomToken(sdk.web, token)
    expect(getAdditionalUserInfo(second)?.isNewUser).toBe(false)
    const record = await sdk.admin.getUser('kunde-1')
    expect(record.providerData).toEqual([])
    const decoded = await verifyAsAdmin(target, sdk.admin, await second.user.getIdToken())
    expect(decoded).toMatchObject({ uid: 'kunde-1', plan: 'pro', level: 2 })
    const badAudience = await call(target, 'POST', `${IT}/accounts:signInWithCustomToken?key=k`, {
      body: { token: await second.user.getIdToken() },
    })
    expect(String((badAudience.body.error as { message: string }).message)).toMatch(
      /^INVALID_CUSTOM_TOKEN : \(\(Invalid aud/,
    )
    expect(await webError(signInWithCustomToken(sdk.web, 'not a token'))).toBe('auth/invalid-custom-token')
  })

  test('verifyIdToken refuses tokens of disabled and deleted users', async () => {
    const { user } = await createUserWithEmailAndPassword(sdk.web, 'verify@example.dk', 'hemmelig1')
    const token = await user.getIdToken()
    const verify = (idToken: string) => verifyAsAdmin(target, sdk.admin, idToken)
    expect((await verify(token)).uid).toBe(user.uid)
    await sdk.admin.updateUser(user.uid, { disabled: true })
    expect(await webError(verify(token))).toBe('auth/user-disabled')
    expect(await webError(user.getIdToken(true))).toBe('auth/user-disabled')
    await sdk.admin.deleteUser(user.uid)
    expect(await webError(verify(token))).toBe('auth/user-not-found')
    expect(await webError(verify(`${token}x`))).toBe('auth/argument-error')
  })

  test('session cookies verify until the user is revoked, and a fresh sign-in works again', async () => {
    await sdk.admin.createUser({ uid: 'sess', email: 'sess@example.dk', password: 'hemmelig1' })
    await sdk.admin.setCustomUserClaims('sess', { role: 'medarbejder' })
    const { user } = await signInWithEmailAndPassword(sdk.web, 'sess@example.dk', 'hemmelig1')
    const idToken = await user.getIdToken()
    const cookie = await sdk.admin.createSessionCookie(idToken, { expiresIn: 5 * 24 * 60 * 60 * 1000 })
    const claims = claimsOf(cookie)
    expect(claims.iss).toBe(`https://session.firebase.google.com/${PROJECT}`)
    expect((claims.exp as number) - (claims.iat as number)).toBe(5 * 24 * 60 * 60)
    const verifyCookie = (sessionCookie: string) => verifyAsAdmin(target, sdk.admin, sessionCookie, 'sessionCookie')
    expect(await verifyCookie(cookie)).toMatchObject({ uid: 'sess', role: 'medarbejder' })
    expect(await webError(sdk.admin.createSessionCookie(idToken, { expiresIn: 1000 }))).toBe(
      'auth/invalid-session-cookie-duration',
    )

    await nextSecond()
    await sdk.admin.revokeRefreshTokens('sess')
    const record = await sdk.admin.getUser('sess')
    expect(Date.parse(record.tokensValidAfterTime as string) % 1000).toBe(0)
    expect(await webError(verifyCookie(cookie))).toBe('auth/session-cookie-revoked')
    expect(await webError(verifyAsAdmin(target, sdk.admin, idToken))).toBe('auth/id-token-revoked')
    expect(await webError(sdk.admin.createSessionCookie(idToken, { expiresIn: 3_600_000 }))).toBe(
      'auth/id-token-expired',
    )
    if (target.signed) {
      // Deliberate difference: revoking ends the refresh token (TOKEN_EXPIRED signs the web user out).
      expect(await webError(user.getIdToken(true))).toBe('auth/user-token-expired')
    } else {
      // The official emulator does not check validSince at refresh; admin keeps refusing the new token.
      const refreshed = await user.getIdToken(true)
      expect(await webError(verifyAsAdmin(target, sdk.admin, refreshed))).toBe('auth/id-token-revoked')
    }
    await signOut(sdk.web)
    const again = await signInWithEmailAndPassword(sdk.web, 'sess@example.dk', 'hemmelig1')
    const fresh = await sdk.admin.createSessionCookie(await again.user.getIdToken(), { expiresIn: 3_600_000 })
    expect((await verifyCookie(fresh)).uid).toBe('sess')
  })

  test('a revoked token signs the web user out at the next reload', async () => {
    const { user } = await createUserWithEmailAndPassword(sdk.web, 'reload@example.dk', 'hemmelig1')
    await nextSecond()
    await sdk.admin.revokeRefreshTokens(user.uid)
    expect(await webError(reload(user))).toBe('auth/user-token-expired')
    expect(sdk.web.currentUser).toBeNull()
  })

  test('an anonymous person signs in and deletes the account', async () => {
    const { user } = await signInAnonymously(sdk.web)
    expect(user.isAnonymous).toBe(true)
    expect(user.uid).toMatch(/^[A-Za-z0-9]{28}$/)
    const claims = claimsOf(await user.getIdToken())
    expect(claims).toMatchObject({
      provider_id: 'anonymous',
      firebase: { identities: {}, sign_in_provider: 'anonymous' },
    })
    await user.delete()
    expect(await webError(sdk.admin.getUser(user.uid))).toBe('auth/user-not-found')
  })

  test('sign-up refuses a taken email and a short password', async () => {
    await createUserWithEmailAndPassword(sdk.web, 'taget@example.dk', 'hemmelig1')
    expect(await webError(createUserWithEmailAndPassword(sdk.web, 'TAGET@example.dk', 'hemmelig1'))).toBe(
      'auth/email-already-in-use',
    )
    expect(await webError(createUserWithEmailAndPassword(sdk.web, 'kort@example.dk', '123'))).toBe('auth/weak-password')
  })

  test('refresh over securetoken speaks form-encoded in and snake_case out', async () => {
    const { user } = await createUserWithEmailAndPassword(sdk.web, 'refresh@example.dk', 'hemmelig1')
    const refresh = await call(target, 'POST', '/securetoken.googleapis.com/v1/token?key=k', {
      body: `grant_type=refresh_token&refresh_token=${encodeURIComponent(user.refreshToken)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(refresh.status).toBe(200)
    expect(Object.keys(refresh.body).sort()).toEqual(
      ['access_token', 'expires_in', 'id_token', 'project_id', 'refresh_token', 'token_type', 'user_id'].sort(),
    )
    expect(refresh.body).toMatchObject({
      expires_in: '3600',
      token_type: 'Bearer',
      user_id: user.uid,
      project_id: '12345',
    })
    expect(refresh.body.access_token).toBe(refresh.body.id_token)
    const bad = await call(target, 'POST', '/securetoken.googleapis.com/v1/token?key=k', {
      body: { grant_type: 'refresh_token', refresh_token: 'bm9wZQ==' },
    })
    expect(bad.body.error).toMatchObject({ code: 400, message: 'INVALID_REFRESH_TOKEN' })
    const grant = await call(target, 'POST', '/securetoken.googleapis.com/v1/token?key=k', {
      body: { grant_type: 'password', refresh_token: user.refreshToken },
    })
    expect(grant.body.error).toMatchObject({ message: 'INVALID_GRANT_TYPE' })
    await sdk.admin.deleteUser(user.uid)
    // Deliberate difference: emulator-lite answers USER_NOT_FOUND as production does (the official
    // emulator INVALID_REFRESH_TOKEN); the web SDK maps it to auth/user-token-expired.
    expect(await webError(user.getIdToken(true))).toBe(
      target.signed ? 'auth/user-token-expired' : 'auth/invalid-refresh-token',
    )
  })

  test('hand-made tokens: the official emulator believes them, emulator-lite does not (deliberate difference)', async () => {
    const { user } = await createUserWithEmailAndPassword(sdk.web, 'forged@example.dk', 'hemmelig1')
    const claims = claimsOf(await user.getIdToken())
    const unsignedIdToken = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`
    const forgedRefresh = Buffer.from(
      JSON.stringify({
        _AuthEmulatorRefreshToken: 'DO NOT MODIFY',
        localId: user.uid,
        provider: 'password',
        extraClaims: { admin: true },
        projectId: PROJECT,
      }),
    ).toString('base64')
    const lookup = await call(target, 'POST', `${IT}/accounts:lookup?key=k`, { body: { idToken: unsignedIdToken } })
    const refresh = await call(target, 'POST', '/securetoken.googleapis.com/v1/token?key=k', {
      body: { grant_type: 'refresh_token', refresh_token: forgedRefresh },
    })
    const custom = await call(target, 'POST', `${IT}/accounts:signInWithCustomToken?key=k`, {
      body: { token: await sdk.admin.createCustomToken(user.uid, { admin: true }) },
    })
    const cookie = await call(target, 'POST', `${IT}/projects/${PROJECT}:createSessionCookie`, {
      body: { idToken: unsignedIdToken, validDuration: 3600 },
      headers: { authorization: 'Bearer owner' },
    })
    const outcomes = [lookup, refresh, custom, cookie].map((answer) =>
      answer.status === 200 ? 'accepted' : String((answer.body.error as { message: string }).message).split(' ')[0],
    )
    expect(outcomes).toEqual(
      target.signed
        ? ['INVALID_ID_TOKEN', 'INVALID_REFRESH_TOKEN', 'INVALID_CUSTOM_TOKEN', 'INVALID_ID_TOKEN']
        : ['accepted', 'accepted', 'accepted', 'accepted'],
    )
  })

  test('callers are told apart by API key and owner token, with the official error envelope', async () => {
    const noKey = await call(target, 'POST', `${IT}/accounts:lookup`, { body: { idToken: 'x' } })
    expect(noKey.status).toBe(403)
    expect(noKey.body.error).toMatchObject({ code: 403, status: 'PERMISSION_DENIED' })
    const badBearer = await call(target, 'POST', `${IT}/accounts:lookup?key=k`, {
      body: { idToken: 'x' },
      headers: { authorization: 'Bearer not-owner' },
    })
    expect(badBearer.status).toBe(401)
    expect(badBearer.body.error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED' })
    const projectWithKey = await call(target, 'POST', `${IT}/projects/${PROJECT}/accounts:lookup?key=k`, {
      body: { localId: ['x'] },
    })
    expect(projectWithKey.status).toBe(400)
    expect(projectWithKey.body.error).toMatchObject({
      message: 'INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id.',
    })
    const badToken = await call(target, 'POST', `${IT}/accounts:lookup?key=k`, { body: { idToken: 'x' } })
    expect(badToken.body).toEqual({
      error: {
        code: 400,
        message: 'INVALID_ID_TOKEN',
        errors: [{ message: 'INVALID_ID_TOKEN', reason: 'invalid', domain: 'global' }],
      },
    })
    const missing = await call(target, 'POST', `${IT}/accounts:signInWithPassword?key=k`, {
      body: { email: 'a@example.dk' },
    })
    expect(missing.body.error).toMatchObject({ message: 'MISSING_PASSWORD' })
    const unknownRoute = await call(target, 'GET', '/no/such/route')
    expect(unknownRoute.status).toBe(404)
    expect(unknownRoute.body.error).toMatchObject({ code: 404, status: 'NOT_FOUND' })
    const malformed = await call(target, 'POST', `${IT}/accounts:signUp?key=k`, {
      body: '{nope',
      headers: { 'content-type': 'application/json' },
    })
    expect(malformed.status).toBe(400)
    expect(malformed.body.error).toMatchObject({ status: 'INVALID_ARGUMENT' })
    const owner = await call(target, 'POST', `${IT}/projects/${PROJECT}/accounts:lookup`, {
      body: { localId: ['ingen'] },
      headers: { authorization: 'Bearer owner' },
    })
    expect(owner.body).toEqual({ kind: 'identitytoolkit#GetAccountInfoResponse' })
  })

  test('health, CORS preflight and the emulator control plane answer like the official emulator', async () => {
    const health = await call(target, 'GET', '/')
    expect(health.body).toMatchObject({ authEmulator: { ready: true } })
    const preflight = await fetch(`http://${target.host}${IT}/accounts:signInWithPassword?key=k`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-client-version,x-firebase-gmpid',
        'access-control-request-private-network': 'true',
      },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type,x-client-version,x-firebase-gmpid')
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET,HEAD,PUT,PATCH,POST,DELETE')
    expect(preflight.headers.get('access-control-allow-private-network')).toBe('true')
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull()
    const actual = await call(target, 'GET', '/', { headers: { origin: 'http://localhost:5173' } })
    expect(actual.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')

    await sdk.admin.createUser({ uid: 'weg', email: 'weg@example.dk' })
    const cleared = await call(target, 'DELETE', `/emulator/v1/projects/${PROJECT}/accounts`)
    expect(cleared).toMatchObject({ status: 200, body: {} })
    expect(await webError(sdk.admin.getUser('weg'))).toBe('auth/user-not-found')
    expect((await call(target, 'GET', `/emulator/v1/projects/${PROJECT}/oobCodes`)).body).toEqual({ oobCodes: [] })
  })

  test('each project keeps its own users, and clearing one leaves the others', async () => {
    const other = connectAuthClients(target, 'demo-auth-other')
    try {
      await call(target, 'DELETE', '/emulator/v1/projects/demo-auth-other/accounts')
      await other.admin.createUser({ uid: 'same', email: 'other@example.dk' })
      await sdk.admin.createUser({ uid: 'same', email: 'default@example.dk' })
      expect((await other.admin.getUser('same')).email).toBe('other@example.dk')
      expect((await sdk.admin.getUser('same')).email).toBe('default@example.dk')
      await call(target, 'DELETE', `/emulator/v1/projects/${PROJECT}/accounts`)
      expect(await webError(sdk.admin.getUser('same'))).toBe('auth/user-not-found')
      expect((await other.admin.getUser('same')).email).toBe('other@example.dk')
    } finally {
      await other.close()
    }
  })
})
