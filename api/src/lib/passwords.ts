import { MUST_CHANGE_PASSWORD_CLAIM, passwordProblem } from '@bosted/domain'
import type { Firebase } from './firebase.ts'
import { httpError } from './http-error.ts'
import type { AppConfig } from './types.ts'

/** 400 `invalid_request` with the policy's Danish message (also under `fields[field]`) unless the password passes. */
export function assertPasswordAllowed(
  config: AppConfig,
  password: string,
  email: string | null | undefined,
  field = 'password',
): void {
  const problem = passwordProblem(password, { policy: config.passwordPolicy, email })
  if (problem !== null) throw httpError('invalid_request', { message: problem, fields: { [field]: [problem] } })
}

/**
 * Gives an account a new password and sets or clears the must-change flag (a custom claim, so it is
 * in every token and in the api's fresh read of the caller). The claim first: a password set by
 * someone else is never usable without it. Setting the password ends every session of the account
 * (emulator-lite and Firebase revoke its refresh tokens and move its tokens' valid-since time).
 */
export async function setAccountPassword(
  firebase: Firebase,
  uid: string,
  password: string,
  mustChange: boolean,
): Promise<void> {
  const record = await firebase.auth.getUser(uid)
  const claims: Record<string, unknown> = { ...(record.customClaims ?? {}) }
  if (mustChange) claims[MUST_CHANGE_PASSWORD_CLAIM] = true
  else delete claims[MUST_CHANGE_PASSWORD_CLAIM]
  const changed = (record.customClaims?.[MUST_CHANGE_PASSWORD_CLAIM] === true) !== mustChange
  if (changed && mustChange) await firebase.auth.setCustomUserClaims(uid, claims)
  await firebase.auth.updateUser(uid, { password })
  if (changed && !mustChange) await firebase.auth.setCustomUserClaims(uid, claims)
}

export const mustChangePassword = (claims: Record<string, unknown> | undefined): boolean =>
  claims?.[MUST_CHANGE_PASSWORD_CLAIM] === true
