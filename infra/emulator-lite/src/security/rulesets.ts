import { readFileSync } from 'node:fs'
import { ApiError } from '../http/errors.ts'
import { parseRules, RulesError, type Ruleset } from '../rules/index.ts'

/** Reads and compiles a rules file; a RulesError names file:line:column. */
export function loadRulesFile(path: string, service: Ruleset['service']): Ruleset {
  let source: string
  try {
    source = readFileSync(path, 'utf8')
  } catch (error) {
    throw new Error(`cannot read rules file ${path}: ${(error as Error).message}`)
  }
  return expectService(parseRules(source, path), service)
}

function expectService(ruleset: Ruleset, service: Ruleset['service']): Ruleset {
  if (ruleset.service !== service)
    throw new RulesError(ruleset.fileName, 1, 1, `expected service ${service}, found service ${ruleset.service}`)
  return ruleset
}

/**
 * The rules in force. Firestore: the `--firestore-rules` file for every project, unless a project
 * got its own through the emulator endpoint (as @firebase/rules-unit-testing sends). Storage: one
 * ruleset for every bucket, as in the official Storage emulator. No ruleset means no rules
 * (everything allowed), which is how the official emulators run without a rules file.
 */
export class Rulesets {
  private readonly firestoreByProject = new Map<string, Ruleset>()
  /** Told the project whose Firestore rules were replaced (open listeners re-check their targets). */
  readonly firestoreWatchers = new Set<(project: string) => void>()

  constructor(private readonly defaults: { firestore: Ruleset | null; storage: Ruleset | null }) {}

  firestore(project: string): Ruleset | null {
    return this.firestoreByProject.get(project) ?? this.defaults.firestore
  }

  storage(): Ruleset | null {
    return this.defaults.storage
  }

  /** `{rules: {files: [{name?, content}]}}` from the emulators' rule-loading endpoints. */
  setFromRequest(service: Ruleset['service'], body: Record<string, unknown>, project?: string): void {
    const files = (body.rules as { files?: unknown } | undefined)?.files
    const file = Array.isArray(files) ? (files[0] as { name?: unknown; content?: unknown } | undefined) : undefined
    if (typeof file?.content !== 'string') throw new ApiError('INVALID_ARGUMENT', 'rules.files[0].content is required')
    const name = typeof file.name === 'string' && file.name !== '' ? file.name : `${service}.rules`
    let ruleset: Ruleset
    try {
      ruleset = expectService(parseRules(file.content, name), service)
    } catch (error) {
      if (error instanceof RulesError) throw new ApiError('INVALID_ARGUMENT', error.message)
      throw error
    }
    if (service === 'firebase.storage') this.defaults.storage = ruleset
    else if (project !== undefined) {
      this.firestoreByProject.set(project, ruleset)
      for (const watcher of this.firestoreWatchers) watcher(project)
    }
  }
}
