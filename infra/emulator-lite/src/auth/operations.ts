import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@bosted/domain/validation'
import { unlessDiskFull } from '../store/disk-state.ts'
import type { AuthProjectConfig, AuthStore, AuthUser } from './auth-store.ts'
import { AuthError, assert, notImplemented, schemaError } from './errors.ts'
import {
  CLOCK_SKEW_SECONDS,
  checkFirebaseJwt,
  checkSignature,
  decodeJwt,
  ID_TOKEN_ISSUER,
  SESSION_COOKIE_ISSUER,
  signJwt,
} from './identity.ts'
import type { SigningKeys, TrustedServiceAccount } from './keys.ts'
import type { OobCodes } from './oob.ts'
import type { SignInThrottle } from './sign-in-throttle.ts'
import {
  CUSTOM_TOKEN_AUDIENCE,
  decodeRefreshToken,
  hashPassword,
  ID_TOKEN_LIFETIME_SECONDS,
  isObject,
  newRefreshToken,
  PROJECT_NUMBER,
  passwordOfFakeHash,
  randomLocalId,
  refreshTokenHash,
  verifyPassword,
} from './tokens.ts'

/** What Auth signs with and whom it believes (docs/decisions/0010-signed-identity.md). */
export type AuthSigning = {
  keys: SigningKeys
  /** The only account whose custom tokens are accepted. */
  serviceAccount: TrustedServiceAccount
  /** Also accept unsigned custom tokens, `alg: none` ID tokens and legacy base64-JSON refresh tokens. */
  acceptUnsignedTokens: boolean
}

/** Who is calling and for which project (docs/wire/auth.md#callers-api-key-or-owner); `throttle` limits password guesses per account. */
export type AuthContext = {
  store: AuthStore
  project: string
  privileged: boolean
  signing: AuthSigning
  throttle?: SignInThrottle
  /** Password-reset codes (auth/oob.ts); absent where none are issued. */
  oob?: OobCodes
}
/** For operations that neither sign nor verify tokens (also run by the import at start-up). */
type StoreContext = Omit<AuthContext, 'signing' | 'throttle'>
export type Body = Record<string, unknown>

/**
 * Production's message when an account is throttled after many failed password attempts
 * (docs/wire/identity.md#abuse-controls); the web SDK maps the code to `auth/too-many-requests`.
 */
export const TOO_MANY_ATTEMPTS =
  'TOO_MANY_ATTEMPTS_TRY_LATER : Access to this account has been temporarily disabled due to many failed login attempts. You can immediately restore it by resetting your password or you can try again later.'
const SESSION_COOKIE_MIN_SECONDS = 5 * 60
const SESSION_COOKIE_MAX_SECONDS = 14 * 24 * 60 * 60
const CUSTOM_ATTRIBUTES_MAX_LENGTH = 1000
const FORBIDDEN_CLAIMS = [
  'iss',
  'aud',
  'sub',
  'iat',
  'exp',
  'nbf',
  'jti',
  'nonce',
  'azp',
  'acr',
  'amr',
  'cnf',
  'auth_time',
  'firebase',
  'at_hash',
  'c_hash',
]

const isValidEmail = (email: string) => /^[^@]+@[^@]+$/.test(email)
const canonicalEmail = (email: string) => email.toLowerCase()
const nowSeconds = () => Math.floor(Date.now() / 1000)

// --- Request fields, checked like the official emulator's schema: numbers become strings,
// other wrong types are a 400 INVALID_ARGUMENT naming the field.

export function str(body: Body, key: string): string | undefined {
  const value = body[key]
  if (value === undefined || value === null) return undefined
  if (typeof value === 'string') return value
  if (typeof value === 'number') return String(value)
  throw schemaError(`Invalid JSON payload received. /${key} must be string`)
}

function bool(body: Body, key: string): boolean | undefined {
  const value = body[key]
  if (value === undefined || value === null) return undefined
  if (typeof value === 'boolean') return value
  throw schemaError(`Invalid JSON payload received. /${key} must be boolean`)
}

function strList(body: Body, key: string): string[] {
  const value = body[key]
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) throw schemaError(`Invalid JSON payload received. /${key} must be array`)
  return value.map((item, index) => {
    if (typeof item === 'string') return item
    if (typeof item === 'number') return String(item)
    throw schemaError(`Invalid JSON payload received. /${key}/${index} must be string`)
  })
}

function num(body: Body, key: string): number | undefined {
  const value = body[key]
  if (value === undefined || value === null) return undefined
  const n = typeof value === 'string' ? Number(value) : value
  if (typeof n !== 'number' || Number.isNaN(n))
    throw schemaError(`Invalid JSON payload received. /${key} must be number`)
  return n
}

// --- Users

/** Mirrors `fields` onto the user; an undefined value removes the field, as the official state does. */
export function applyFields(user: AuthUser, fields: Partial<AuthUser>): AuthUser {
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) delete user[key]
    else user[key] = value
  }
  const upserts: Record<string, unknown>[] = []
  const deletes: string[] = []
  if (user.email && user.passwordHash) {
    upserts.push(
      defined({
        providerId: 'password',
        email: user.email,
        federatedId: user.email,
        rawId: user.email,
        displayName: user.displayName,
        photoUrl: user.photoUrl,
      }),
    )
  } else deletes.push('password')
  if (user.phoneNumber) upserts.push({ providerId: 'phone', phoneNumber: user.phoneNumber, rawId: user.phoneNumber })
  else deletes.push('phone')
  if (user.providerUserInfo) {
    user.providerUserInfo = user.providerUserInfo.filter((info) => !deletes.includes(info.providerId as string))
  }
  if (upserts.length > 0) {
    const infos = user.providerUserInfo ?? []
    for (const upsert of upserts) {
      const index = infos.findIndex((info) => info.providerId === upsert.providerId)
      if (index < 0) infos.push(upsert)
      else infos[index] = upsert
    }
    user.providerUserInfo = infos
  }
  return user
}

function defined<T extends Record<string, unknown>>(value: T): T {
  for (const key of Object.keys(value)) if (value[key] === undefined) delete value[key]
  return value
}

function parseCustomAttributes(user: AuthUser): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(user.customAttributes ?? '{}')
    return isObject(parsed) ? parsed : {}
  } catch {
    return {}
  }
}

/** The ID token payload in the official emulator's key order (docs/wire/auth.md#id-token). */
function idTokenPayload(
  project: string,
  user: AuthUser,
  signInProvider: string,
  extraClaims: Record<string, unknown>,
  authTime: number,
): Record<string, unknown> {
  const identities: Record<string, string[]> = {}
  if (user.email) identities.email = [user.email]
  for (const info of user.providerUserInfo ?? []) {
    const providerId = info.providerId
    if (typeof providerId === 'string' && providerId !== 'password' && typeof info.rawId === 'string') {
      identities[providerId] = [...(identities[providerId] ?? []), info.rawId]
    }
  }
  const iat = nowSeconds()
  const payload: Record<string, unknown> = {
    name: user.displayName,
    picture: user.photoUrl,
    ...parseCustomAttributes(user),
    ...extraClaims,
    email: user.email,
    email_verified: user.emailVerified,
    phone_number: user.phoneNumber,
    provider_id: signInProvider === 'anonymous' ? signInProvider : undefined,
    auth_time: authTime,
    user_id: user.localId,
    firebase: { identities, sign_in_provider: signInProvider },
  }
  // jsonwebtoken (which the official emulator signs with) drops undefined keys and appends these last.
  const result = defined(payload)
  delete result.iat
  delete result.exp
  delete result.aud
  delete result.iss
  delete result.sub
  return {
    ...result,
    iat,
    exp: iat + ID_TOKEN_LIFETIME_SECONDS,
    aud: project,
    iss: `https://securetoken.google.com/${project}`,
    sub: user.localId,
  }
}

/** An ID token of the `id` key set for `user`, in the session that began at `authTime` (seconds). */
function mintIdToken(
  ctx: AuthContext,
  user: AuthUser,
  signInProvider: string,
  extraClaims: Record<string, unknown>,
  authTime: number,
): string {
  const { kid, privateKey } = ctx.signing.keys.active('id')
  return signJwt(idTokenPayload(ctx.project, user, signInProvider, extraClaims, authTime), privateKey, kid)
}

/**
 * Tokens of a new session: a signed ID token and an opaque refresh token, whose hash is stored with
 * what the session stands for. `authTime` is when the user really signed in (default: now).
 */
function issueTokens(
  ctx: AuthContext,
  user: AuthUser,
  signInProvider: string,
  extraClaims: Record<string, unknown> = {},
  authTime = nowSeconds(),
) {
  user.lastRefreshAt = new Date().toISOString()
  const refreshToken = newRefreshToken()
  ctx.store.transaction(() => {
    ctx.store.put(ctx.project, user)
    ctx.store.addRefreshSession(refreshTokenHash(refreshToken), {
      project: ctx.project,
      uid: user.localId,
      provider: signInProvider,
      extraClaims,
      authTime,
      createdAt: Date.now(),
    })
  })
  return {
    idToken: mintIdToken(ctx, user, signInProvider, extraClaims, authTime),
    refreshToken,
    expiresIn: String(ID_TOKEN_LIFETIME_SECONDS),
  }
}

/**
 * The claims of an ID token carried in a request body, after its signature, `aud` (this project),
 * `iss`, `sub`, `exp`, `iat` and `auth_time` are checked (docs/wire/identity.md#minting-and-checking): a bad token is
 * INVALID_ID_TOKEN, an expired one TOKEN_EXPIRED. Unsigned tokens only with acceptUnsignedTokens.
 */
function verifiedIdTokenClaims(ctx: AuthContext, idToken: string): Record<string, unknown> {
  const decoded = decodeJwt(idToken)
  if (decoded?.header.alg === 'none' && ctx.signing.acceptUnsignedTokens) return decoded.payload
  const checked = checkFirebaseJwt(idToken, ctx.signing.keys, 'id', ID_TOKEN_ISSUER, [ctx.project], Date.now())
  if (!checked.ok) throw new AuthError(checked.reason === 'expired' ? 'TOKEN_EXPIRED' : 'INVALID_ID_TOKEN')
  return checked.claims
}

/** Checks an ID token carried in a request (docs/wire/auth.md#revocation): its signature, its user, iat ≥ validSince, not disabled. */
function parseIdToken(ctx: AuthContext, idToken: string) {
  const payload = verifiedIdTokenClaims(ctx, idToken)
  assert(isObject(payload.firebase), 'INVALID_ID_TOKEN')
  const firebase = payload.firebase
  assert(!firebase.tenant, '((Parsed token that belongs to tenant in a non-tenant project.))')
  const user = typeof payload.user_id === 'string' ? ctx.store.get(ctx.project, payload.user_id) : undefined
  assert(user, 'USER_NOT_FOUND')
  assert(!user.validSince || Number(payload.iat) >= Number(user.validSince), 'TOKEN_EXPIRED')
  assert(!user.disabled, 'USER_DISABLED')
  const signInProvider = typeof firebase.sign_in_provider === 'string' ? firebase.sign_in_provider : 'password'
  const authTime = typeof payload.auth_time === 'number' ? payload.auth_time : nowSeconds()
  return { user, signInProvider, payload, authTime }
}

function validateCustomClaims(claims: unknown): asserts claims is Record<string, unknown> {
  assert(isObject(claims), 'INVALID_CLAIMS')
  for (const reserved of FORBIDDEN_CLAIMS) assert(!(reserved in claims), `FORBIDDEN_CLAIM : ${reserved}`)
}

function validateSerializedClaims(claims: string): void {
  assert(claims.length <= CUSTOM_ATTRIBUTES_MAX_LENGTH, 'CLAIMS_TOO_LARGE')
  let parsed: unknown
  try {
    parsed = JSON.parse(claims)
  } catch {
    throw new AuthError('INVALID_CLAIMS')
  }
  validateCustomClaims(parsed)
}

/**
 * A password that is set (signUp, update, batchCreate) has 6 to 4,096 characters (UTF-16 units, as the
 * SDKs count): the minimum is Firebase's, the maximum the longest the SDKs' password policies accept
 * (`PASSWORD_MAX_LENGTH`, the same bound as the api's). Both answer `WEAK_PASSWORD` with a detail.
 */
export function checkPasswordLength(password: string): void {
  assert(
    password.length >= PASSWORD_MIN_LENGTH,
    `WEAK_PASSWORD : Password should be at least ${PASSWORD_MIN_LENGTH} characters`,
  )
  assert(
    password.length <= PASSWORD_MAX_LENGTH,
    `WEAK_PASSWORD : Password should be at most ${PASSWORD_MAX_LENGTH} characters`,
  )
}

/** The throttle's key of an account: its project and canonical email. */
export const throttleKey = (project: string, email: string) => `${project}\u0000${canonicalEmail(email)}`

function emailTaken(ctx: StoreContext, email: string, exceptLocalId?: string): boolean {
  const owner = ctx.store.getByEmail(ctx.project, email)
  return owner !== undefined && owner.localId !== exceptLocalId
}

// --- Operations (each named after the official emulator's, docs/wire/auth.md#web-sdk-operations, #admin-operations, #emulator-only-endpoints)

export async function signUp(ctx: AuthContext, body: Body) {
  const idToken = str(body, 'idToken')
  const localIdIn = str(body, 'localId')
  const email = str(body, 'email')
  const password = str(body, 'password')
  const displayName = str(body, 'displayName')
  const now = Date.now()
  const updates: Partial<AuthUser> = { lastLoginAt: String(now) }
  let provider: string | undefined
  if (ctx.privileged) {
    if (idToken) assert(!localIdIn, 'UNEXPECTED_PARAMETER : User ID')
    if (localIdIn) assert(!ctx.store.get(ctx.project, localIdIn), 'DUPLICATE_LOCAL_ID')
    updates.displayName = displayName
    updates.photoUrl = str(body, 'photoUrl')
    updates.emailVerified = bool(body, 'emailVerified') ?? false
    const phoneNumber = str(body, 'phoneNumber')
    if (phoneNumber) {
      assert(phoneNumber.startsWith('+'), 'INVALID_PHONE_NUMBER : Invalid format.')
      assert(!ctx.store.getByPhone(ctx.project, phoneNumber), 'PHONE_NUMBER_EXISTS')
      updates.phoneNumber = phoneNumber
    }
    if (bool(body, 'disabled')) updates.disabled = true
  } else {
    assert(!localIdIn, 'UNEXPECTED_PARAMETER : User ID')
    if (idToken || password || email) {
      updates.displayName = displayName
      updates.emailVerified = false
      assert(email, 'MISSING_EMAIL')
      assert(password, 'MISSING_PASSWORD')
      provider = 'password'
    } else provider = 'anonymous'
  }
  if (email || (email === '' && provider)) {
    assert(isValidEmail(email), 'INVALID_EMAIL')
    assert(!emailTaken(ctx, canonicalEmail(email)), 'EMAIL_EXISTS')
    updates.email = canonicalEmail(email)
  }
  if (password) {
    checkPasswordLength(password)
    Object.assign(updates, await hashPassword(password))
    updates.passwordUpdatedAt = Date.now()
    updates.validSince = String(nowSeconds())
  }
  let user: AuthUser
  if (idToken) {
    user = parseIdToken(ctx, idToken).user
    // The hash above yielded to other requests: re-check what they could have changed.
    if (updates.email) assert(!emailTaken(ctx, updates.email, user.localId), 'EMAIL_EXISTS')
    applyFields(user, updates)
  } else {
    const localId = localIdIn ?? randomLocalId()
    assert(!ctx.store.get(ctx.project, localId), 'DUPLICATE_LOCAL_ID')
    if (updates.email) assert(!emailTaken(ctx, updates.email), 'EMAIL_EXISTS')
    user = applyFields({ localId }, { ...updates, createdAt: String(now) })
  }
  // A new password ends the sessions the account had (an anonymous account gaining one).
  if (idToken && updates.validSince) ctx.store.revokeRefreshSessions(ctx.project, user.localId)
  ctx.store.put(ctx.project, user)
  return defined({
    kind: 'identitytoolkit#SignupNewUserResponse',
    localId: user.localId,
    displayName: user.displayName,
    email: user.email,
    ...(provider ? issueTokens(ctx, user, provider) : {}),
  })
}

export function lookup(ctx: AuthContext, body: Body) {
  const users: AuthUser[] = []
  const seen = new Set<string>()
  const add = (user: AuthUser | undefined) => {
    if (user && !seen.has(user.localId)) {
      users.push(user)
      seen.add(user.localId)
    }
  }
  if (ctx.privileged) {
    if (body.initialEmail !== undefined) throw notImplemented('Lookup by initialEmail is not implemented.')
    for (const localId of strList(body, 'localId')) add(ctx.store.get(ctx.project, localId))
    for (const email of strList(body, 'email')) add(ctx.store.getByEmail(ctx.project, canonicalEmail(email)))
    for (const phone of strList(body, 'phoneNumber')) add(ctx.store.getByPhone(ctx.project, phone))
  } else {
    const idToken = str(body, 'idToken')
    assert(idToken, 'MISSING_ID_TOKEN')
    add(parseIdToken(ctx, idToken).user)
  }
  return defined({ kind: 'identitytoolkit#GetAccountInfoResponse', users: users.length > 0 ? users : undefined })
}

export async function update(ctx: AuthContext, body: Body) {
  for (const field of ['provider', 'upgradeToFederatedLogin']) {
    if (field in body) throw notImplemented(`${field} is not implemented yet.`)
  }
  const idToken = str(body, 'idToken')
  const oobCode = str(body, 'oobCode')
  const localIdIn = str(body, 'localId')
  const customAttributes = str(body, 'customAttributes')
  if (!ctx.privileged) {
    assert(idToken || oobCode, 'INVALID_REQ_TYPE : Unsupported request parameters.')
    assert(customAttributes === undefined, 'INSUFFICIENT_PERMISSION')
  } else assert(localIdIn, 'MISSING_LOCAL_ID')
  if (customAttributes) validateSerializedClaims(customAttributes)
  const deleteAttribute = strList(body, 'deleteAttribute')
  for (const attr of deleteAttribute) {
    if (attr === 'PROVIDER' || attr === 'RAW_USER_INFO') throw notImplemented(`deleteAttribute: ${attr}`)
  }
  // Out-of-band codes (email verification, password reset) are never issued here.
  assert(!oobCode, 'INVALID_OOB_CODE')
  const disableUser = bool(body, 'disableUser')
  let user: AuthUser
  let signInProvider: string | undefined
  let authTime: number | undefined
  if (idToken) {
    ;({ user, signInProvider, authTime } = parseIdToken(ctx, idToken))
    assert(disableUser === undefined, 'OPERATION_NOT_ALLOWED')
  } else {
    assert(localIdIn, 'MISSING_LOCAL_ID')
    const found = ctx.store.get(ctx.project, localIdIn)
    assert(found, 'USER_NOT_FOUND')
    user = found
  }
  const updates: Partial<AuthUser> = {}
  const email = str(body, 'email')
  let newEmail: string | undefined
  if (email) {
    assert(isValidEmail(email), 'INVALID_EMAIL')
    newEmail = canonicalEmail(email)
    if (newEmail !== user.email) {
      assert(!emailTaken(ctx, newEmail), 'EMAIL_EXISTS')
      updates.email = newEmail
      updates.emailVerified = false
      if (signInProvider !== 'anonymous' && user.email && !user.initialEmail) updates.initialEmail = user.email
    }
  }
  const password = str(body, 'password')
  if (password) {
    checkPasswordLength(password)
    Object.assign(updates, await hashPassword(password))
    updates.passwordUpdatedAt = Date.now()
    signInProvider = 'password'
  }
  const validSinceIn = str(body, 'validSince')
  if (password || validSinceIn || updates.email) updates.validSince = String(nowSeconds())
  const copied = ['displayName', 'photoUrl']
  if (ctx.privileged) {
    if (disableUser !== undefined) updates.disabled = disableUser
    const phoneNumber = str(body, 'phoneNumber')
    if (phoneNumber && phoneNumber !== user.phoneNumber) {
      assert(phoneNumber.startsWith('+'), 'INVALID_PHONE_NUMBER : Invalid format.')
      assert(!ctx.store.getByPhone(ctx.project, phoneNumber), 'PHONE_NUMBER_EXISTS')
      updates.phoneNumber = phoneNumber
    }
    copied.push('emailVerified', 'customAttributes', 'createdAt', 'lastLoginAt', 'validSince')
  }
  for (const field of copied) {
    const value = field === 'emailVerified' ? bool(body, field) : str(body, field)
    if (value !== undefined) updates[field] = value
    // Deliberate difference: the web SDK sends `photoUrl: null` to clear the photo; the official emulator rejects it.
    else if (body[field] === null && (field === 'displayName' || field === 'photoUrl')) updates[field] = undefined
  }
  for (const attr of deleteAttribute) {
    if (attr === 'DISPLAY_NAME') updates.displayName = undefined
    else if (attr === 'PHOTO_URL') updates.photoUrl = undefined
    else if (attr === 'PASSWORD') Object.assign(updates, { passwordHash: undefined, salt: undefined })
    else if (attr === 'EMAIL') Object.assign(updates, { email: undefined, emailVerified: undefined })
  }
  const deleteProvider = strList(body, 'deleteProvider')
  if (deleteProvider.includes('password')) {
    Object.assign(updates, { email: undefined, emailVerified: undefined, passwordHash: undefined, salt: undefined })
  }
  if (deleteProvider.includes('phone')) updates.phoneNumber = undefined
  // The hash above yielded to other requests: take the latest record and re-check the email.
  const latest = ctx.store.get(ctx.project, user.localId)
  assert(latest, 'USER_NOT_FOUND')
  if (updates.email) assert(!emailTaken(ctx, updates.email, latest.localId), 'EMAIL_EXISTS')
  user = applyFields(latest, updates)
  // A password or email change, revokeRefreshTokens (validSince) and disabling end every session;
  // the caller's own session continues with the tokens issued below.
  if (updates.validSince !== undefined || updates.disabled === true)
    ctx.store.revokeRefreshSessions(ctx.project, user.localId)
  ctx.store.put(ctx.project, user)
  // A new password restores a throttled account at once, as production's message promises.
  if (password && user.email) ctx.throttle?.forget(throttleKey(ctx.project, user.email))
  return defined({
    kind: 'identitytoolkit#SetAccountInfoResponse',
    localId: user.localId,
    emailVerified: user.emailVerified,
    providerUserInfo: user.providerUserInfo,
    email: user.email,
    displayName: user.displayName,
    photoUrl: user.photoUrl,
    newEmail,
    passwordHash: user.passwordHash,
    ...(updates.validSince && signInProvider ? issueTokens(ctx, user, signInProvider, {}, authTime) : {}),
  })
}

export function deleteAccount(ctx: AuthContext, body: Body) {
  let user: AuthUser
  if (ctx.privileged) {
    const localId = str(body, 'localId')
    assert(localId, 'MISSING_LOCAL_ID')
    const found = ctx.store.get(ctx.project, localId)
    assert(found, 'USER_NOT_FOUND')
    user = found
  } else {
    const idToken = str(body, 'idToken')
    assert(idToken, 'MISSING_ID_TOKEN')
    user = parseIdToken(ctx, idToken).user
  }
  ctx.store.delete(ctx.project, user.localId)
  return { kind: 'identitytoolkit#DeleteAccountResponse' }
}

export function batchGet(ctx: AuthContext, query: URLSearchParams) {
  const requested = Math.floor(Number(query.get('maxResults')))
  const maxResults = Math.min(requested || 20, 1000)
  const startAfter = query.get('nextPageToken') ?? ''
  if (maxResults < 0) {
    return { kind: 'identitytoolkit#DownloadAccountResponse', users: ctx.store.page(ctx.project, startAfter, -1) }
  }
  const users = ctx.store.page(ctx.project, startAfter, maxResults)
  const full = users.length > 0 && users.length >= maxResults
  return defined({
    kind: 'identitytoolkit#DownloadAccountResponse',
    users,
    nextPageToken: full ? users[users.length - 1]?.localId : undefined,
  })
}

export function batchDelete(ctx: AuthContext, body: Body) {
  const localIds = strList(body, 'localIds')
  assert(localIds.length > 0 && localIds.length <= 1000, 'LOCAL_ID_LIST_EXCEEDS_LIMIT')
  const force = bool(body, 'force')
  const errors: Record<string, unknown>[] = []
  ctx.store.transaction(() => {
    localIds.forEach((localId, index) => {
      const user = ctx.store.get(ctx.project, localId)
      if (!user) return
      if (!user.disabled && !force) {
        errors.push({ index, localId, message: 'NOT_DISABLED : Disable the account before batch deletion.' })
      } else ctx.store.delete(ctx.project, localId)
    })
  })
  return defined({ errors: errors.length > 0 ? errors : undefined })
}

export async function batchCreate(ctx: StoreContext, body: Body) {
  const users = body.users
  assert(Array.isArray(users) && users.length > 0, 'MISSING_USER_ACCOUNT')
  const allowOverwrite = body.allowOverwrite === true
  if (!allowOverwrite) {
    const seen = new Set<string>()
    for (const info of users) {
      const localId = isObject(info) && typeof info.localId === 'string' ? info.localId : ''
      assert(!seen.has(localId), `DUPLICATE_LOCAL_ID : ${localId}`)
      seen.add(localId)
    }
  }
  const errors: { index: number; message: string }[] = []
  for (const [index, info] of users.entries()) {
    try {
      assert(isObject(info), 'user must be an object')
      const localId = str(info, 'localId')
      assert(localId, 'localId is missing')
      const uploadTime = Date.now()
      const fields: Partial<AuthUser> = {
        displayName: str(info, 'displayName'),
        photoUrl: str(info, 'photoUrl'),
        lastLoginAt: str(info, 'lastLoginAt'),
      }
      const passwordHash = str(info, 'passwordHash')
      const rawPassword = str(info, 'rawPassword')
      const plain = passwordHash ? passwordOfFakeHash(passwordHash, str(info, 'salt')) : (rawPassword ?? null)
      if (plain !== null) {
        // Only the upper bound: an import keeps the short passwords another system allowed.
        assert(
          plain.length <= PASSWORD_MAX_LENGTH,
          `WEAK_PASSWORD : Password should be at most ${PASSWORD_MAX_LENGTH} characters`,
        )
        Object.assign(fields, await hashPassword(plain))
        fields.passwordUpdatedAt = uploadTime
      } else if (passwordHash) {
        // A hash from another system cannot be checked here; kept so an export round-trips.
        fields.passwordHash = passwordHash
        fields.salt = str(info, 'salt')
        fields.passwordUpdatedAt = uploadTime
      }
      const customAttributes = str(info, 'customAttributes')
      if (customAttributes) {
        try {
          validateSerializedClaims(customAttributes)
        } catch (error) {
          const message = (error as Error).message
          throw new AuthError(
            message === 'CLAIMS_TOO_LARGE'
              ? 'Custom claims provided are too large.'
              : message.startsWith('FORBIDDEN_CLAIM')
                ? 'Custom claims provided include a reserved claim.'
                : 'Invalid custom claims provided.',
          )
        }
        fields.customAttributes = customAttributes
      }
      const phoneNumber = str(info, 'phoneNumber')
      if (phoneNumber) {
        assert(phoneNumber.startsWith('+'), 'phone number format is invalid')
        fields.phoneNumber = phoneNumber
      }
      fields.validSince = String(Math.floor(uploadTime / 1000))
      const createdAt = str(info, 'createdAt')
      fields.createdAt = createdAt !== undefined && !Number.isNaN(Number(createdAt)) ? createdAt : String(uploadTime)
      const email = str(info, 'email')
      if (email) {
        assert(isValidEmail(email), 'email is invalid')
        assert(
          !emailTaken(ctx, canonicalEmail(email), localId),
          `((Auth Emulator does not support importing duplicate email: ${email}))`,
        )
        fields.email = canonicalEmail(email)
      }
      fields.emailVerified = !!info.emailVerified
      fields.disabled = !!info.disabled
      if (ctx.store.get(ctx.project, localId)) {
        assert(allowOverwrite, 'localId belongs to an existing account - can not overwrite.')
        ctx.store.revokeRefreshSessions(ctx.project, localId)
      }
      ctx.store.put(ctx.project, applyFields({ localId }, fields))
    } catch (error) {
      if (!(error instanceof AuthError) || error.httpStatus !== 400) throw error
      errors.push({ index, message: error.message })
    }
  }
  return { kind: 'identitytoolkit#UploadAccountResponse', error: errors }
}

export function queryAccounts(ctx: AuthContext, body: Body) {
  if (body.expression !== undefined && !Array.isArray(body.expression)) {
    throw schemaError('Invalid JSON payload received. /expression must be array')
  }
  if (Array.isArray(body.expression) && body.expression.length > 0) {
    throw notImplemented('expression is not implemented.')
  }
  if (bool(body, 'returnUserInfo') === false) return { recordsCount: String(ctx.store.count(ctx.project)) }
  const users = ctx.store.page(ctx.project, '', -1)
  if (body.order === 'DESC') users.reverse()
  return { recordsCount: String(users.length), userInfo: users }
}

export function createSessionCookie(ctx: AuthContext, body: Body) {
  const idToken = str(body, 'idToken')
  assert(idToken, 'MISSING_ID_TOKEN')
  const validDuration = num(body, 'validDuration') || SESSION_COOKIE_MAX_SECONDS
  assert(validDuration >= SESSION_COOKIE_MIN_SECONDS && validDuration <= SESSION_COOKIE_MAX_SECONDS, 'INVALID_DURATION')
  const { payload } = parseIdToken(ctx, idToken)
  const iat = nowSeconds()
  const { kid, privateKey } = ctx.signing.keys.active('session')
  return {
    sessionCookie: signJwt(
      {
        ...payload,
        iat,
        exp: iat + Math.floor(validDuration),
        iss: `${SESSION_COOKIE_ISSUER}${String(payload.aud)}`,
      },
      privateKey,
      kid,
    ),
  }
}

export async function signInWithPassword(ctx: AuthContext, body: Body) {
  const email = str(body, 'email')
  assert(email !== undefined, 'MISSING_EMAIL')
  assert(isValidEmail(email), 'INVALID_EMAIL')
  const password = str(body, 'password')
  assert(password, 'MISSING_PASSWORD')
  if (body.captchaResponse || body.captchaChallenge) throw notImplemented('captcha unimplemented')
  if (body.idToken || body.pendingIdToken) {
    throw notImplemented('idToken / pendingIdToken is no longer in use and unsupported by the Auth Emulator.')
  }
  const canonical = canonicalEmail(email)
  const found = ctx.store.getByEmail(ctx.project, canonical)
  const privacy = ctx.store.config(ctx.project).emailPrivacyConfig.enableImprovedEmailPrivacy
  assert(found, privacy ? 'INVALID_LOGIN_CREDENTIALS' : 'EMAIL_NOT_FOUND')
  assert(!found.disabled, 'USER_DISABLED')
  const wrong = privacy ? 'INVALID_LOGIN_CREDENTIALS' : 'INVALID_PASSWORD'
  // A password longer than any that can be set cannot be right; it is not hashed.
  const { passwordHash, salt } = found
  const verify = async () =>
    !!passwordHash &&
    !!salt &&
    password.length <= PASSWORD_MAX_LENGTH &&
    (await verifyPassword(password, passwordHash, salt))
  // Throttled per account: during a lock the right password is refused too, without being checked.
  const outcome = ctx.throttle
    ? await ctx.throttle.check(throttleKey(ctx.project, canonical), verify)
    : (await verify())
      ? 'right'
      : 'wrong'
  assert(outcome !== 'locked', TOO_MANY_ATTEMPTS)
  assert(outcome === 'right', wrong)
  // The check above yielded to other requests: sign in the user as it is now.
  const user = ctx.store.get(ctx.project, found.localId)
  assert(user && user.passwordHash === found.passwordHash, wrong)
  assert(!user.disabled, 'USER_DISABLED')
  user.lastLoginAt = String(Date.now())
  return {
    kind: 'identitytoolkit#VerifyPasswordResponse',
    registered: true,
    localId: user.localId,
    email: canonical,
    ...issueTokens(ctx, user, 'password'),
  }
}

function primitiveString(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return undefined
}

const UNSIGNED_CUSTOM_TOKEN =
  'INVALID_CUSTOM_TOKEN : ((emulator-lite accepts only custom tokens signed by its service account; start it with --accept-unsigned-tokens to accept unsigned ones.))'

/** An unsigned custom token (JSON, or a JWT with `alg: none`) as the official emulator takes it. */
function unsignedCustomToken(token: string): Record<string, unknown> {
  if (token.startsWith('{')) {
    let parsed: unknown
    try {
      parsed = JSON.parse(token)
    } catch {
      throw new AuthError(
        'INVALID_CUSTOM_TOKEN : ((Auth Emulator only accepts strict JSON or JWTs as fake custom tokens.))',
      )
    }
    assert(
      isObject(parsed),
      'INVALID_CUSTOM_TOKEN : ((Auth Emulator only accepts strict JSON or JWTs as fake custom tokens.))',
    )
    return parsed
  }
  const decoded = decodeJwt(token)
  assert(decoded, 'INVALID_CUSTOM_TOKEN : Invalid assertion format')
  return decoded.payload
}

/**
 * A custom token signed (RS256) by the trusted service account (docs/wire/identity.md#refresh-and-custom-tokens): `iss` = `sub` =
 * its email (else CREDENTIAL_MISMATCH), a `kid` that is absent or its key id, `aud` the IdentityToolkit
 * audience, `iat` not in the future, `exp` > now and at most 3600 s after `iat`, `uid` of 1..128.
 */
function signedCustomToken(ctx: AuthContext, token: string): Record<string, unknown> {
  const decoded = decodeJwt(token)
  assert(decoded, 'INVALID_CUSTOM_TOKEN : Invalid assertion format')
  const { payload, header } = decoded
  assert(
    payload.aud === CUSTOM_TOKEN_AUDIENCE,
    `INVALID_CUSTOM_TOKEN : ((Invalid aud (audience): ${String(payload.aud)} Note: Firebase ID Tokens / third-party tokens cannot be used with signInWithCustomToken.))`,
  )
  if (header.alg === 'none' && ctx.signing.acceptUnsignedTokens) return payload
  assert(header.alg === 'RS256', UNSIGNED_CUSTOM_TOKEN)
  const account = ctx.signing.serviceAccount
  assert(payload.iss === account.key.client_email && payload.sub === payload.iss, 'CREDENTIAL_MISMATCH')
  const signed = checkSignature(
    token,
    (kid) => (kid === '' || kid === account.key.private_key_id ? account.publicKey : undefined),
    { kidRequired: false },
  )
  assert(signed.ok, 'INVALID_CUSTOM_TOKEN : invalid signature')
  const now = nowSeconds()
  const { iat, exp } = payload
  assert(typeof iat === 'number' && iat <= now + CLOCK_SKEW_SECONDS, 'INVALID_CUSTOM_TOKEN : invalid iat')
  assert(typeof exp === 'number' && exp > now, 'INVALID_CUSTOM_TOKEN : token expired')
  assert(exp - iat <= ID_TOKEN_LIFETIME_SECONDS, 'INVALID_CUSTOM_TOKEN : exp is more than 3600 s after iat')
  assert(
    typeof payload.uid === 'string' && payload.uid.length >= 1 && payload.uid.length <= 128,
    'INVALID_CUSTOM_TOKEN : uid must be a string of 1 to 128 characters',
  )
  return payload
}

export function signInWithCustomToken(ctx: AuthContext, body: Body) {
  const token = str(body, 'token')
  assert(token, 'MISSING_CUSTOM_TOKEN')
  let payload: Record<string, unknown>
  if (token.startsWith('{')) {
    assert(ctx.signing.acceptUnsignedTokens, UNSIGNED_CUSTOM_TOKEN)
    payload = unsignedCustomToken(token)
  } else payload = signedCustomToken(ctx, token)
  const localId = primitiveString(payload.uid) ?? primitiveString(payload.user_id)
  assert(localId, 'MISSING_IDENTIFIER')
  let extraClaims: Record<string, unknown> = {}
  if ('claims' in payload) {
    validateCustomClaims(payload.claims)
    extraClaims = payload.claims
  }
  const existing = ctx.store.get(ctx.project, localId)
  const now = String(Date.now())
  if (existing) assert(!existing.disabled, 'USER_DISABLED')
  const user = applyFields(existing ?? { localId }, {
    customAuth: true,
    lastLoginAt: now,
    ...(existing ? {} : { createdAt: now }),
  })
  return {
    kind: 'identitytoolkit#VerifyCustomTokenResponse',
    isNewUser: !existing,
    ...issueTokens(ctx, user, 'custom', extraClaims),
  }
}

export function grantToken(ctx: AuthContext, body: Body) {
  const grantType = str(body, 'grantType')
  assert(grantType, 'MISSING_GRANT_TYPE')
  assert(grantType === 'refresh_token', 'INVALID_GRANT_TYPE')
  const refreshToken = str(body, 'refreshToken')
  assert(refreshToken, 'MISSING_REFRESH_TOKEN')
  const session = ctx.store.refreshSession(refreshTokenHash(refreshToken))
  if (!session) {
    // The official emulator's forgeable base64-JSON token, only when unsigned tokens are accepted.
    const legacy = ctx.signing.acceptUnsignedTokens ? decodeRefreshToken(refreshToken) : null
    assert(legacy && legacy.projectId === ctx.project, 'INVALID_REFRESH_TOKEN')
    const user = ctx.store.get(ctx.project, legacy.localId)
    assert(user, 'INVALID_REFRESH_TOKEN')
    assert(!user.disabled, 'USER_DISABLED')
    return grantResponse(user, issueTokens(ctx, user, legacy.provider, legacy.extraClaims))
  }
  assert(session.project === ctx.project, 'INVALID_REFRESH_TOKEN')
  const user = ctx.store.get(ctx.project, session.uid)
  assert(user, 'USER_NOT_FOUND')
  assert(!user.disabled, 'USER_DISABLED')
  assert(
    session.revokedAt === null &&
      (user.validSince === undefined || Number(user.validSince) <= Math.floor(session.createdAt / 1000)),
    'TOKEN_EXPIRED',
  )
  user.lastRefreshAt = new Date().toISOString()
  // lastRefreshAt is bookkeeping: on a full disk the refresh answers without it (ADR 0018), since the
  // web SDK signs its user out on any refused refresh, and signed-in staff must go on reading.
  unlessDiskFull(() => ctx.store.put(ctx.project, user))
  const idToken = mintIdToken(ctx, user, session.provider, session.extraClaims, session.authTime)
  return grantResponse(user, { idToken, refreshToken, expiresIn: String(ID_TOKEN_LIFETIME_SECONDS) })
}

function grantResponse(user: AuthUser, tokens: { idToken: string; refreshToken: string; expiresIn: string }) {
  return {
    id_token: tokens.idToken,
    access_token: tokens.idToken,
    expires_in: tokens.expiresIn,
    refresh_token: tokens.refreshToken,
    token_type: 'Bearer',
    user_id: user.localId,
    project_id: PROJECT_NUMBER,
  }
}

export function getConfig(ctx: AuthContext): AuthProjectConfig {
  return ctx.store.config(ctx.project)
}

/** Changes only the two settable fields that are present (docs/wire/auth.md#emulator-only-endpoints). */
export function updateConfig(ctx: StoreContext, body: Body): AuthProjectConfig {
  const config = ctx.store.config(ctx.project)
  const signIn = body.signIn
  if (signIn !== undefined && signIn !== null) {
    if (!isObject(signIn)) throw schemaError('Invalid JSON payload received. /signIn must be object')
    const value = bool(signIn, 'allowDuplicateEmails')
    if (value !== undefined) config.signIn.allowDuplicateEmails = value
  }
  const privacy = body.emailPrivacyConfig
  if (privacy !== undefined && privacy !== null) {
    if (!isObject(privacy)) throw schemaError('Invalid JSON payload received. /emailPrivacyConfig must be object')
    const value = bool(privacy, 'enableImprovedEmailPrivacy')
    if (value !== undefined) config.emailPrivacyConfig.enableImprovedEmailPrivacy = value
  }
  ctx.store.setConfig(ctx.project, config)
  return config
}

/** The longest refresh token the revocation below reads (ours are far shorter). */
export const MAX_REFRESH_TOKEN_CHARS = 4096

/**
 * `POST /emulator/v1/projects/{p}/refreshTokens:revoke` `{refreshToken}` (privileged): ends the one
 * device session that token belongs to, as "Log ud" on that device (docs/decisions/0025-words.md).
 * Production has no such call (revokeRefreshTokens ends every session of a user). The answer is the
 * same whether the token was known, already revoked or another project's: no oracle.
 */
export function revokeRefreshToken(ctx: AuthContext, body: Body) {
  if (!ctx.privileged) throw new AuthError('INSUFFICIENT_PERMISSION', 403, 'PERMISSION_DENIED', 'forbidden')
  const refreshToken = str(body, 'refreshToken')
  if (refreshToken === undefined || refreshToken === '') throw schemaError('MISSING_REFRESH_TOKEN')
  if (refreshToken.length > MAX_REFRESH_TOKEN_CHARS)
    throw schemaError(`refreshToken exceeds ${MAX_REFRESH_TOKEN_CHARS} characters`)
  const hash = refreshTokenHash(refreshToken)
  const session = ctx.store.refreshSession(hash)
  if (session && session.project === ctx.project && session.revokedAt === null) ctx.store.revokeRefreshSession(hash)
  return {}
}

export function clearAccounts(ctx: AuthContext) {
  ctx.store.clear(ctx.project)
  return {}
}
