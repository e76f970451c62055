// Unit-test fixtures for the token verifier: locally generated RSA keys, published over HTTP on
// 127.0.0.1 at the paths and in the formats emulator-lite and Google use (a JWKS, and a
// `{kid: PEM certificate}` map with Cache-Control: max-age), and a signer for any header and claims.
import { createHmac, createSign, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { selfSignedCertificate } from '@bosted/emulator-lite'

export type TestKey = { kid: string; privateKey: KeyObject; publicKey: KeyObject; certificate: string }

export function generateTestKey(kid = randomBytes(20).toString('hex')): TestKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  // Google-style certificates, built by emulator-lite's certificate builder (as it publishes its own).
  const certificate = selfSignedCertificate({
    publicKey,
    privateKey,
    commonName: kid,
    notBefore: new Date(Date.now() - 24 * 3600_000),
    notAfter: new Date(Date.now() + 24 * 3600_000),
  })
  return { kid, privateKey, publicKey, certificate }
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

/** A JWT with exactly this header and payload, RS256-signed with `key` (or HS256 with a secret, or unsigned). */
export function signJwt(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  key?: KeyObject | { hmacSecret: string },
): string {
  const input = `${b64(header)}.${b64(payload)}`
  if (key === undefined) return `${input}.`
  if ('hmacSecret' in key) return `${input}.${createHmac('sha256', key.hmacSecret).update(input).digest('base64url')}`
  return `${input}.${createSign('RSA-SHA256').update(input).sign(key, 'base64url')}`
}

export type KeyServer = {
  /** `127.0.0.1:<port>`, what FIREBASE_AUTH_EMULATOR_HOST would be. */
  host: string
  /** Google's key host as served here: `http://127.0.0.1:<port>/www.googleapis.com`. */
  googleBaseUrl: string
  /** The keys published per set; change them to publish others (rotation). */
  published: { id: TestKey[]; session: TestKey[] }
  /** `ok`, or a broken endpoint: an error status, a body that is not JSON, or a JSON error body. */
  mode: 'ok' | 'error' | 'not-json' | 'error-body'
  /** Requests served per path. */
  requests: Map<string, number>
  close(): Promise<void>
}

const PATHS = {
  idJwks: '/www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com',
  sessionJwks: '/www.googleapis.com/service_accounts/v1/jwk/session-cookies@emulator-lite.iam.gserviceaccount.com',
  idX509: '/www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com',
  sessionX509: '/www.googleapis.com/identitytoolkit/v3/relyingparty/publicKeys',
}

const jwks = (keys: TestKey[]) => ({
  keys: keys.map((key) => ({ ...key.publicKey.export({ format: 'jwk' }), kid: key.kid, alg: 'RS256', use: 'sig' })),
})
const x509 = (keys: TestKey[]) => Object.fromEntries(keys.map((key) => [key.kid, key.certificate]))

/** Publishes the keys on 127.0.0.1 the way emulator-lite (JWKS) and Google (x509 maps) do. */
export async function startKeyServer(published: KeyServer['published']): Promise<KeyServer> {
  const state = { published, mode: 'ok' as KeyServer['mode'], requests: new Map<string, number>() }
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)
    state.requests.set(path, (state.requests.get(path) ?? 0) + 1)
    const body =
      path === PATHS.idJwks
        ? jwks(state.published.id)
        : path === PATHS.sessionJwks
          ? jwks(state.published.session)
          : path === PATHS.idX509
            ? x509(state.published.id)
            : path === PATHS.sessionX509
              ? x509(state.published.session)
              : undefined
    if (body === undefined || state.mode === 'error') {
      response.writeHead(body === undefined ? 404 : 500).end()
      return
    }
    response.writeHead(200, {
      'content-type': state.mode === 'not-json' ? 'text/html' : 'application/json; charset=UTF-8',
      'cache-control': 'public, max-age=19000, must-revalidate, no-transform',
    })
    const text =
      state.mode === 'not-json'
        ? '<html>Service unavailable</html>'
        : JSON.stringify(state.mode === 'error-body' ? { error: { code: 503, message: 'backend error' } } : body)
    response.end(text)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    host,
    googleBaseUrl: `http://${host}/www.googleapis.com`,
    get published() {
      return state.published
    },
    set published(value) {
      state.published = value
    },
    get mode() {
      return state.mode
    },
    set mode(value) {
      state.mode = value
    },
    requests: state.requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export const KEY_PATHS = PATHS
