import type { AppConfig } from './types.ts'

/**
 * What became of one device's refresh token at "Log ud" (docs/decisions/0025-words.md):
 * - `revoked`: emulator-lite's admin listener ended it (its answer is the same whether or not it
 *   knew the token);
 * - `unsupported`: a real Firebase project, which has no revocation of one refresh token (only
 *   `revokeRefreshTokens`, every session of the user): nothing is asked;
 * - `failed`: the emulator could not be asked or refused (the official Auth emulator has no such
 *   path). The logout itself has succeeded either way.
 */
export type RefreshTokenRevocation = 'revoked' | 'unsupported' | 'failed'

/** Never throws; logs nothing that names the account or the token. */
export async function revokeDeviceRefreshToken(
  identityToolkit: AppConfig['identityToolkit'],
  project: string,
  refreshToken: string,
): Promise<RefreshTokenRevocation> {
  const host = identityToolkit.emulatorHost
  if (host === undefined) return 'unsupported'
  try {
    const response = await fetch(
      `http://${host}/emulator/v1/projects/${encodeURIComponent(project)}/refreshTokens:revoke`,
      {
        method: 'POST',
        headers: { authorization: 'Bearer owner', 'content-type': 'application/json' },
        body: JSON.stringify({ refreshToken }),
        signal: AbortSignal.timeout(5_000),
      },
    )
    await response.body?.cancel()
    if (response.ok) return 'revoked'
    console.warn(`[api] logout: the Auth emulator did not revoke this device's refresh token (${response.status})`)
  } catch (error) {
    console.warn(
      `[api] logout: the Auth emulator could not be asked to revoke a refresh token (${(error as Error).name})`,
    )
  }
  return 'failed'
}
