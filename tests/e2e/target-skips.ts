/**
 * The journeys that cannot run against a target the suite does not start itself, each with the reason,
 * by name (`<spec file>: <test title>`). Against a pilot (E2E_TARGET=pilot) the suite's setup makes a
 * first admin with the pilot's own tool and fills the empty pilot with the demo fixture through the
 * admin listener, so journeys needing demo data run; what a pilot deliberately does differently
 * (one origin, its password policy) is listed here. global-setup.ts prints the list at the start, and
 * fixtures.ts (and stack.spec.ts, which does not use the fixtures) skip exactly these.
 */
/** The pilot's password policy (ADR 0023) against the demo's short passwords. */
const POLICY =
  "a pilot's password policy (at least 12 characters, not the e-mail, not a common one) refuses a password this journey types; make test-pilot makes accounts with passwords the policy accepts"

export const TARGET_SKIPS: Record<string, Record<string, string>> = {
  compose: {},
  pilot: {
    'stack.spec.ts: the app serves its runtime configuration pointing at the emulators':
      "a pilot's /config.json names its one HTTPS origin, not the emulators' ports (make test-pilot checks the pilot's)",
    'stack.spec.ts: every response carries the security headers: the page, /config.json, a hashed asset and the api':
      "a pilot's CSP names only its origin (connect-src 'self', no emulator port); make test-pilot checks the pilot's headers",
    'change-password.spec.ts: a temporary password set by a superuser must be changed before anything else': POLICY,
    'create-person.spec.ts: a superuser creates a person through the three steps; the person is listed in settings and on the daily overview':
      POLICY,
    'create-user.spec.ts: a superuser creates a colleague for one location, who can sign in and sees only that location':
      POLICY,
    'create-user.spec.ts: an admin creates a superuser and changes the role through the role call': POLICY,
    'field-errors.spec.ts: creating a person with an e-mail in use puts the message at the e-mail field on step 1':
      POLICY,
    'field-errors.spec.ts: creating a user with an e-mail in use puts the message at the e-mail field': POLICY,
  },
}

/** The reason `file: title` is skipped on the current target, or undefined. */
export function skipReason(file: string, title: string): string | undefined {
  const target = process.env.E2E_TARGET
  if (!target) return undefined
  const name = `${file.split('/').pop()}: ${title}`
  return TARGET_SKIPS[target]?.[name]
}

/** The list, printed at the start of a run against `target`. */
export function describeSkips(target: string): string {
  const skips = Object.entries(TARGET_SKIPS[target] ?? {})
  if (!skips.length) return `e2e target ${target}: no journey is skipped`
  return [
    `e2e target ${target}: ${skips.length} journeys skipped by name:`,
    ...skips.map(([name, reason]) => `  SKIP ${name}\n       because ${reason}`),
  ].join('\n')
}
