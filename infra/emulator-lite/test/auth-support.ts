import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '@bosted/stack/ports'
import { startAuthEmulator } from '@bosted/stack/services/auth-emulator'
import { deleteApp, type FirebaseApp, initializeApp } from 'firebase/app'
import { type Auth, connectAuthEmulator, initializeAuth, inMemoryPersistence } from 'firebase/auth'
import { type App, deleteApp as deleteAdminApp, initializeApp as initializeAdminApp } from 'firebase-admin/app'
import { type Auth as AdminAuth, getAuth as getAdminAuth } from 'firebase-admin/auth'
import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose'
import { KEY_PATHS, type ServiceAccountKey, signCustomToken, startEmulatorLite } from '../src/index.ts'

/**
 * An Auth emulator under test: `host` is `host:port` (browsers'); `adminHost` is where firebase-admin
 * and the control plane go (emulator-lite's admin listener; the official emulator's one port).
 * Web SDK calls land in `projectId`. A `signed` target (emulator-lite) signs its tokens and trusts
 * custom tokens of `serviceAccount` only; the official emulator signs nothing (README: deliberate
 * differences).
 */
export type AuthTarget = {
  name: string
  host: string
  adminHost: string
  projectId: string
  signed: boolean
  serviceAccount: ServiceAccountKey | null
  close(): Promise<void>
}

export const TARGET_NAMES = ['emulator-lite', 'official'] as const

export async function startAuthTarget(name: (typeof TARGET_NAMES)[number], projectId: string): Promise<AuthTarget> {
  if (name === 'emulator-lite') {
    const emulator = await startEmulatorLite({
      firestorePort: 0,
      storagePort: 0,
      authPort: 0,
      inMemory: true,
      authProjectId: projectId,
    })
    return {
      name,
      host: `127.0.0.1:${emulator.authPort}`,
      adminHost: `127.0.0.1:${emulator.adminPort}`,
      projectId,
      signed: true,
      serviceAccount: emulator.serviceAccount,
      close: () => emulator.close(),
    }
  }
  const workDir = mkdtempSync(join(tmpdir(), 'official-auth-'))
  const port = await freePort()
  const service = await startAuthEmulator({
    host: '127.0.0.1',
    port,
    hubPort: await freePort(),
    loggingPort: await freePort(),
    projectId,
    workDir,
    persist: false,
  })
  return {
    name,
    host: `127.0.0.1:${port}`,
    adminHost: `127.0.0.1:${port}`,
    projectId,
    signed: false,
    serviceAccount: null,
    async close() {
      await service.stop()
      rmSync(workDir, { recursive: true, force: true })
    },
  }
}

export type AuthClients = { web: Auth; webApp: FirebaseApp; admin: AdminAuth; close(): Promise<void> }

let clientCount = 0

/** The official web SDK (connectAuthEmulator) and firebase-admin (FIREBASE_AUTH_EMULATOR_HOST) on a target. */
export function connectAuthClients(target: AuthTarget, projectId = target.projectId): AuthClients {
  process.env.FIREBASE_AUTH_EMULATOR_HOST = target.adminHost
  clientCount += 1
  const webApp = initializeApp(
    { apiKey: 'fake-api-key', projectId, appId: '1:12345:web:abcdef' },
    `auth-web-${clientCount}`,
  )
  const web = initializeAuth(webApp, { persistence: inMemoryPersistence })
  connectAuthEmulator(web, `http://${target.host}`, { disableWarnings: true })
  const adminApp: App = initializeAdminApp({ projectId }, `auth-admin-${clientCount}`)
  return {
    web,
    webApp,
    admin: getAdminAuth(adminApp),
    async close() {
      await deleteApp(webApp)
      await deleteAdminApp(adminApp)
    },
  }
}

/** Calls a privileged tool makes: the owner credential, the control plane, a project named in the path. */
const isPrivileged = (path: string, headers: Record<string, string> | undefined) =>
  headers?.authorization === 'Bearer owner' ||
  path.startsWith('/emulator/') ||
  /^\/identitytoolkit\.googleapis\.com\/v[12]\/projects\/[^/]/.test(path)

/**
 * A raw Identity Toolkit call, for what the SDKs hide (status codes, error envelopes). Privileged
 * calls go to the admin listener, as firebase-admin's and the tools' do.
 */
export async function call(
  target: AuthTarget,
  method: string,
  path: string,
  options: { body?: string | object; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const body =
    options.body === undefined || typeof options.body === 'string' ? options.body : JSON.stringify(options.body)
  const headers =
    options.body !== undefined && typeof options.body !== 'string'
      ? { 'content-type': 'application/json', ...options.headers }
      : options.headers
  const host = isPrivileged(path, options.headers) ? target.adminHost : target.host
  const response = await fetch(`http://${host}${path}`, { method, body, headers })
  const text = await response.text()
  let parsed: Record<string, unknown> = {}
  try {
    parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {}
  } catch {
    parsed = { text }
  }
  return { status: response.status, body: parsed, headers: response.headers }
}

/** The payload of an unsigned emulator token. */
export function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString('utf8')) as Record<string, unknown>
}

/** Revocation compares whole seconds (docs/wire/auth.md#revocation): wait until the clock enters the next one. */
export async function nextSecond(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 20))
}

export function errorCode(error: unknown): string {
  return (error as { code?: string }).code ?? String(error)
}

/**
 * A custom token the target accepts: signed with emulator-lite's service account (as the api does),
 * or firebase-admin's unsigned one for the official emulator.
 */
export async function customTokenFor(
  target: AuthTarget,
  admin: AdminAuth,
  uid: string,
  claims?: Record<string, unknown>,
): Promise<string> {
  return target.serviceAccount
    ? signCustomToken(target.serviceAccount, uid, claims)
    : admin.createCustomToken(uid, claims)
}

/**
 * firebase-admin's verifyIdToken / verifySessionCookie as run against an emulator (which always
 * checks revocation and the disabled flag), for both targets. firebase-admin in emulator mode
 * refuses every signed token (docs/wire/identity.md#firebase-admin-in-emulator-mode), so a signed target is checked with jose against the
 * JWKS it publishes, then with getUser; errors carry firebase-admin's codes.
 */
export async function verifyAsAdmin(
  target: AuthTarget,
  admin: AdminAuth,
  token: string,
  kind: 'idToken' | 'sessionCookie' = 'idToken',
): Promise<JWTPayload & { uid: string }> {
  if (!target.signed) {
    return kind === 'idToken' ? admin.verifyIdToken(token, true) : admin.verifySessionCookie(token, true)
  }
  const prefix = kind === 'idToken' ? 'id-token' : 'session-cookie'
  const fail = (code: string): never => {
    throw Object.assign(new Error(code), { code: `auth/${code}` })
  }
  const path = kind === 'idToken' ? KEY_PATHS.idJwks : KEY_PATHS.sessionJwks
  const issuer = `${kind === 'idToken' ? 'https://securetoken.google.com/' : 'https://session.firebase.google.com/'}${target.projectId}`
  let payload: JWTPayload
  try {
    ;({ payload } = await jwtVerify(token, createRemoteJWKSet(new URL(`http://${target.host}${path}`)), {
      algorithms: ['RS256'],
      issuer,
      audience: target.projectId,
      requiredClaims: ['exp', 'iat', 'sub', 'auth_time'],
    }))
  } catch (error) {
    return fail((error as { code?: string }).code === 'ERR_JWT_EXPIRED' ? `${prefix}-expired` : 'argument-error')
  }
  const user = await admin.getUser(payload.sub as string).catch(() => fail('user-not-found'))
  if (user.disabled) fail('user-disabled')
  const validSince = user.tokensValidAfterTime ? Date.parse(user.tokensValidAfterTime) : 0
  if ((payload.auth_time as number) * 1000 < validSince) fail(`${prefix}-revoked`)
  return { ...payload, uid: payload.sub as string }
}
