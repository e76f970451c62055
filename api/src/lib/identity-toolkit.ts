import type { AppConfig } from './types.ts'

/**
 * Exchanges a custom token for an ID token through the Auth REST API (the emulator's, or Google's
 * with the web API key): createSessionCookie only accepts ID tokens, so this is how refresh gets a
 * fresh session without the browser signing in again.
 */
export async function idTokenForCustomToken(
  identityToolkit: AppConfig['identityToolkit'],
  customToken: string,
): Promise<string> {
  const base = identityToolkit.emulatorHost
    ? `http://${identityToolkit.emulatorHost}/identitytoolkit.googleapis.com`
    : 'https://identitytoolkit.googleapis.com'
  const response = await fetch(
    `${base}/v1/accounts:signInWithCustomToken?key=${encodeURIComponent(identityToolkit.apiKey)}`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: customToken, returnSecureToken: true }),
      signal: AbortSignal.timeout(10_000),
    },
  )
  const body = (await response.json().catch(() => ({}))) as { idToken?: unknown; error?: { message?: unknown } }
  if (!response.ok || typeof body.idToken !== 'string') {
    throw new Error(`signInWithCustomToken failed: ${response.status} ${String(body.error?.message ?? '')}`)
  }
  return body.idToken
}
