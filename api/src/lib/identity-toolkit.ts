import type { AppConfig } from './types.ts'

/** An error answer of the Auth REST API: its message's first word is the code (`INVALID_PASSWORD : …`). */
export class IdentityToolkitError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
  ) {
    super(`identitytoolkit answered ${status} ${reason}`)
    this.name = 'IdentityToolkitError'
  }
}

/**
 * One call of the Auth REST API as a web client makes it (the emulator's, or Google's with the web
 * API key): `accounts:signInWithCustomToken`, `accounts:signInWithPassword`, `accounts:sendOobCode`,
 * `accounts:resetPassword`. Rejects with IdentityToolkitError on an error answer.
 */
export async function identityToolkit<T extends Record<string, unknown>>(
  config: AppConfig['identityToolkit'],
  operation: string,
  body: Record<string, unknown>,
): Promise<T> {
  const base = config.emulatorHost
    ? `http://${config.emulatorHost}/identitytoolkit.googleapis.com`
    : 'https://identitytoolkit.googleapis.com'
  const response = await fetch(`${base}/v1/accounts:${operation}?key=${encodeURIComponent(config.apiKey)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  })
  const answer = (await response.json().catch(() => ({}))) as T & { error?: { message?: unknown } }
  if (!response.ok) {
    const message = typeof answer.error?.message === 'string' ? answer.error.message : ''
    throw new IdentityToolkitError(response.status, message.split(/[\s:]/)[0] ?? '')
  }
  return answer
}

/**
 * Exchanges a custom token for an ID token through the Auth REST API: createSessionCookie only
 * accepts ID tokens, so this is how refresh gets a fresh session without the browser signing in again.
 */
export async function idTokenForCustomToken(
  identityToolkitConfig: AppConfig['identityToolkit'],
  customToken: string,
): Promise<string> {
  let body: { idToken?: unknown }
  try {
    body = await identityToolkit(identityToolkitConfig, 'signInWithCustomToken', {
      token: customToken,
      returnSecureToken: true,
    })
  } catch (error) {
    if (error instanceof IdentityToolkitError) {
      throw new Error(`signInWithCustomToken failed: ${error.status} ${error.reason}`)
    }
    throw error
  }
  if (typeof body.idToken !== 'string') throw new Error('signInWithCustomToken failed: no idToken')
  return body.idToken
}

/** Signs in with email and password as the web does; the ID token, or IdentityToolkitError. */
export async function idTokenForPassword(
  identityToolkitConfig: AppConfig['identityToolkit'],
  email: string,
  password: string,
): Promise<string> {
  const body = await identityToolkit<{ idToken?: unknown }>(identityToolkitConfig, 'signInWithPassword', {
    email,
    password,
    returnSecureToken: true,
  })
  if (typeof body.idToken !== 'string') throw new IdentityToolkitError(500, 'NO_ID_TOKEN')
  return body.idToken
}
