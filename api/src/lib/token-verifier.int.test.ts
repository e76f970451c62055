// Real tokens from emulator-lite, verified through both key sources: its JWKS, and the Google-shaped
// certificate maps it also publishes (the production path, pointed at emulator-lite instead of Google).
import { afterAll, beforeAll, expect, test } from 'vitest'
import { readEnv } from '../env.ts'
import {
  createTestApi,
  createTestUser,
  loginAs,
  type Session,
  signIn,
  type TestApi,
  type TestUser,
} from '../testing.ts'
import { emulatorKeySource, googleKeySource, type KeySource, TokenVerifier } from './token-verifier.ts'

let api: TestApi
let user: TestUser
let session: Session

beforeAll(async () => {
  api = createTestApi('demo-api-token-verifier')
  user = await createTestUser(api.firebase, { userRole: 'user' })
  session = await loginAs(api, user)
})
afterAll(() => api.close())

const host = () => api.env.FIREBASE_AUTH_EMULATOR_HOST ?? ''
const sources: [string, () => KeySource][] = [
  ["emulator-lite's JWKS", () => emulatorKeySource(host())],
  [
    "emulator-lite's Google-shaped certificates",
    () => googleKeySource({ baseUrl: `http://${host()}/www.googleapis.com` }),
  ],
]

// The official Auth emulator (AUTH_EMULATOR=official) signs nothing and publishes no keys.
const signsTokens = readEnv().ACCEPT_UNSIGNED_TOKENS !== 'true'

test.runIf(signsTokens).each(sources)(
  'a real ID token and session cookie verify with %s, and do not pass for each other',
  async (_, keys) => {
    const tokens = new TokenVerifier({
      projectId: api.firebase.projectId,
      keys: keys(),
      getUser: (uid) => api.firebase.auth.getUser(uid),
    })
    const idToken = await signIn(api.env, user)
    await expect(tokens.verifyIdToken(idToken)).resolves.toMatchObject({ uid: user.uid, userRole: 'user' })
    await expect(tokens.verifySessionCookie(session.session)).resolves.toMatchObject({ uid: user.uid })
    await expect(tokens.verifySessionCookie(idToken)).rejects.toMatchObject({ name: 'TokenRejectedError' })
    await expect(tokens.verifyIdToken(session.session)).rejects.toMatchObject({ name: 'TokenRejectedError' })
  },
)
