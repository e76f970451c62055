import { readFileSync } from 'node:fs'
import { type CryptoKey, importPKCS8, SignJWT } from 'jose'
import * as z from 'zod/mini'

/** The audience of every Firebase custom token (firebase-admin's, and what Auth checks). */
export const CUSTOM_TOKEN_AUDIENCE =
  'https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit'

/** The fields of a Google service-account key file that signing needs (emulator-lite writes one). */
export const ServiceAccountSchema = z.object({
  type: z.literal('service_account'),
  project_id: z.string().check(z.minLength(1)),
  private_key_id: z.string().check(z.minLength(1)),
  private_key: z.string().check(z.includes('PRIVATE KEY')),
  client_email: z.string().check(z.minLength(1)),
})
export type ServiceAccount = z.infer<typeof ServiceAccountSchema>

/** Reads and checks a service-account key file; fails naming the file, never printing the key. */
export function readServiceAccount(path: string): ServiceAccount {
  let json: unknown
  try {
    json = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new Error(`The service-account file ${path} could not be read as JSON: ${(error as Error).message}`)
  }
  const result = ServiceAccountSchema.safeParse(json)
  if (!result.success) {
    const fields = [...new Set(result.error.issues.map((issue) => issue.path.join('.')))].join(', ')
    throw new Error(`The service-account file ${path} is not a service-account key (check: ${fields})`)
  }
  return result.data
}

/**
 * A signer of custom tokens with a service account's key, shaped as firebase-admin signs them in
 * production: RS256, no `kid`, `iss` = `sub` = the account's email, the IdentityToolkit audience,
 * one hour, and `uid`. The api uses it against emulator-lite, where firebase-admin's own
 * createCustomToken only makes unsigned tokens.
 */
export function customTokenSigner(
  account: ServiceAccount,
  options: { now?: () => number } = {},
): (uid: string) => Promise<string> {
  const now = options.now ?? Date.now
  let key: Promise<CryptoKey> | undefined
  const signingKey = () => {
    key ??= importPKCS8(account.private_key, 'RS256')
    return key
  }
  return async (uid) => {
    if (uid.length === 0 || uid.length > 128) throw new Error('a custom token needs a uid of 1 to 128 characters')
    const iat = Math.floor(now() / 1000)
    return new SignJWT({ uid })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setIssuer(account.client_email)
      .setSubject(account.client_email)
      .setAudience(CUSTOM_TOKEN_AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(iat + 3600)
      .sign(await signingKey())
  }
}
