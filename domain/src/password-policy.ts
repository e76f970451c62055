import { da } from './messages/da.ts'
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './validation.ts'

/**
 * Which rules a new password must pass (docs/decisions/0023-passwords.md):
 * - `pilot`: at least 12 characters, not the account's email (or the part before the @), not one of
 *   the commonest passwords (nor one of them with digits or signs added at the end);
 * - `demo`: the spec's rule (REQ-VALID-3: at least 6 characters), which the demo data's accounts meet.
 * The api enforces it (PASSWORD_POLICY); the web shows the same Danish messages before it asks.
 */
export const PASSWORD_POLICIES = ['pilot', 'demo'] as const
export type PasswordPolicy = (typeof PASSWORD_POLICIES)[number]

export const PILOT_PASSWORD_MIN_LENGTH = 12

export function passwordMinLength(policy: PasswordPolicy): number {
  return policy === 'pilot' ? PILOT_PASSWORD_MIN_LENGTH : PASSWORD_MIN_LENGTH
}

/**
 * The commonest passwords and the words they are built from (international lists' top entries and
 * their Danish counterparts). Compared in lowercase, also with digits and signs stripped from the end,
 * so "Adgangskode2024!" counts as "adgangskode".
 */
const COMMON_PASSWORDS = new Set([
  '123456789012',
  '1234567890123',
  '12345678901234',
  '123123123123',
  '111111111111',
  '000000000000',
  '987654321098',
  '1q2w3e4r5t6y',
  'qwertyuiopå',
  'qwertyuiop',
  'qwerty',
  'qwertyuiop123',
  'asdfghjkl',
  'asdfghjklæø',
  'zxcvbnm',
  'password',
  'passw0rd',
  'passwordpassword',
  'password123',
  'iloveyou',
  'letmein',
  'welcome',
  'admin',
  'administrator',
  'abc',
  'abcdefghijkl',
  'abcdefghijklm',
  'football',
  'monkey',
  'dragon',
  'sunshine',
  'princess',
  'baseball',
  'superman',
  'trustno',
  'changeme',
  'secret',
  'adgangskode',
  'kodeord',
  'hemmelig',
  'hemmeligt',
  'velkommen',
  'sommer',
  'vinter',
  'foraar',
  'forår',
  'efteraar',
  'efterår',
  'januar',
  'februar',
  'marts',
  'april',
  'maj',
  'juni',
  'juli',
  'august',
  'september',
  'oktober',
  'november',
  'december',
  'danmark',
  'kobenhavn',
  'københavn',
  'aarhus',
  'odense',
  'aalborg',
  'kommune',
  'bosted',
  'bostedet',
  'borger',
  'medarbejder',
  'superbruger',
  'demo',
  'demobruger',
  'hejmeddig',
  'elskerdig',
  'jegelskerdig',
  'skiftmig',
  'nyadgangskode',
  'midlertidig',
  'fodbold',
  'kodeord123',
])

/** The password with digits, spaces and signs removed from its end, in lowercase. */
const stem = (password: string) => password.toLowerCase().replace(/[\d\s\p{P}\p{S}]+$/u, '')

function isCommon(password: string): boolean {
  const lower = password.toLowerCase()
  if (COMMON_PASSWORDS.has(lower) || COMMON_PASSWORDS.has(stem(password))) return true
  // One character repeated, or a run of digits ("aaaaaaaaaaaa", "123456789012…").
  if (/^(.)\1*$/u.test(lower)) return true
  return /^\d+$/.test(lower) && '01234567890123456789'.includes(lower)
}

/**
 * The Danish message for what is wrong with `password` under `policy`, or null when it may be used.
 * `email` is the account's (the one being created or changed).
 */
export function passwordProblem(
  password: string,
  options: { policy: PasswordPolicy; email?: string | null | undefined },
): string | null {
  if (password === '') return da.validation.passwordRequired
  if (password.length > PASSWORD_MAX_LENGTH) return da.validation.passwordTooLong
  if (options.policy === 'demo') return password.length < PASSWORD_MIN_LENGTH ? da.validation.passwordTooShort : null
  if (password.length < PILOT_PASSWORD_MIN_LENGTH) return da.passwords.tooShort
  const email = options.email?.trim().toLowerCase() ?? ''
  const lower = password.trim().toLowerCase()
  if (email !== '' && (lower === email || lower === email.split('@')[0] || stem(password) === email.split('@')[0])) {
    return da.passwords.isEmail
  }
  if (isCommon(password)) return da.passwords.tooCommon
  return null
}
