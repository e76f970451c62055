import { SERVICE_ACCOUNT_EMAIL, type SigningKeys, type TrustedServiceAccount } from './keys.ts'

/** A GET answer; the caller writes it in whatever HTTP layer it has. */
export type KeyResponse = { status: number; headers: Record<string, string>; body: string }

const ROBOT = '/www.googleapis.com/robot/v1/metadata/x509/'
const JWK = '/www.googleapis.com/service_accounts/v1/jwk/'

/** The accounts Google publishes keys under, and the extension account of the session-cookie JWKS. */
export const KEY_PATHS = {
  idCertificates: `${ROBOT}securetoken@system.gserviceaccount.com`,
  serviceAccountCertificates: `${ROBOT}${SERVICE_ACCOUNT_EMAIL}`,
  idJwks: `${JWK}securetoken@system.gserviceaccount.com`,
  sessionCertificates: '/www.googleapis.com/identitytoolkit/v3/relyingparty/publicKeys',
  sessionJwks: `${JWK}session-cookies@emulator-lite.iam.gserviceaccount.com`,
} as const

/**
 * emulator-lite's published public keys at the paths Google publishes its own (host name as the
 * first path segment): the ID-token set and the session-cookie set, each as an x509 certificate
 * map and a JWKS, and the service account's certificate. Only public keys ever leave here.
 * `(path) => answer`, or null when the path is not a key path (or the method is not GET/HEAD).
 */
export function createKeyRoutes(keys: SigningKeys, serviceAccount: TrustedServiceAccount) {
  const answer = (body: unknown): KeyResponse => ({
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=600' },
    body: JSON.stringify(body),
  })
  return function keyRoute(method: string, path: string): KeyResponse | null {
    if (method !== 'GET' && method !== 'HEAD') return null
    switch (path) {
      case KEY_PATHS.idCertificates:
        return answer(keys.certificates('id'))
      case KEY_PATHS.idJwks:
        return answer(keys.jwks('id'))
      case KEY_PATHS.sessionCertificates:
        return answer(keys.certificates('session'))
      case KEY_PATHS.sessionJwks:
        return answer(keys.jwks('session'))
      case KEY_PATHS.serviceAccountCertificates:
        return answer(serviceAccount.certificates)
      default:
        return null
    }
  }
}

export type KeyRoute = ReturnType<typeof createKeyRoutes>
