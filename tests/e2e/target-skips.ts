/**
 * The journeys that cannot run against a target the suite does not start itself, each with the reason,
 * by name (`<spec file>: <test title>`). Against a pilot (E2E_TARGET=pilot) the suite's setup makes a
 * first admin with the pilot's own tool and fills the empty pilot with the demo fixture through the
 * admin listener, so journeys needing demo data run; what a pilot deliberately does differently
 * (its one origin, which replaces the emulators' ports and their CSP) is listed here. global-setup.ts prints the list at the start, and
 * fixtures.ts (and stack.spec.ts, which does not use the fixtures) skip exactly these.
 */
export const TARGET_SKIPS: Record<string, Record<string, string>> = {
  compose: {
    'app-shell.spec.ts: a new build is taken at the next load, offline too; the page open on the one before keeps working':
      "it deploys a second build into the served copy of the app, which only the native stack's own copy (E2E_WEB_ROOT) allows",
  },
  pilot: {
    'app-shell.spec.ts: a new build is taken at the next load, offline too; the page open on the one before keeps working':
      "it deploys a second build into the served copy of the app, which only the native stack's own copy (E2E_WEB_ROOT) allows",
    'stack.spec.ts: the app serves its runtime configuration pointing at the emulators':
      "a pilot's /config.json names its one HTTPS origin, not the emulators' ports (make test-pilot checks the pilot's)",
    'stack.spec.ts: every response carries the security headers: the page, /config.json, a hashed asset and the api':
      "a pilot's CSP names only its origin (connect-src 'self', no emulator port); make test-pilot checks the pilot's headers",
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
