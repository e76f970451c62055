import { createPrivateKey } from 'node:crypto'
import { signJwt } from './identity.ts'
import type { ServiceAccountKey } from './keys.ts'
import { CUSTOM_TOKEN_AUDIENCE, ID_TOKEN_LIFETIME_SECONDS } from './tokens.ts'

/**
 * A custom token signed with `serviceAccount` as firebase-admin signs one with a key file
 * (docs/wire/identity.md#custom-token-claims: RS256, `iss` = `sub` = the account's email, one hour), plus the key id in the
 * header. For tests and tools that hold emulator-lite's service-account.json: firebase-admin itself
 * only makes unsigned ones while FIREBASE_AUTH_EMULATOR_HOST is set.
 */
export function signCustomToken(
  serviceAccount: ServiceAccountKey,
  uid: string,
  claims?: Record<string, unknown>,
  nowSeconds = Math.floor(Date.now() / 1000),
): string {
  return signJwt(
    {
      iss: serviceAccount.client_email,
      sub: serviceAccount.client_email,
      aud: CUSTOM_TOKEN_AUDIENCE,
      iat: nowSeconds,
      exp: nowSeconds + ID_TOKEN_LIFETIME_SECONDS,
      uid,
      ...(claims ? { claims } : {}),
    },
    createPrivateKey(serviceAccount.private_key),
    serviceAccount.private_key_id,
  )
}
