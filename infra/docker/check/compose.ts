// Static checks of Compose files without a Docker engine: interpolation, the documented merge of an
// override file, validation against the Compose Specification's JSON schema, and the stack's own
// invariants (healthchecks, dependency conditions, ports, volumes).
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Ajv, type ValidateFunction } from 'ajv'
import { parse } from 'yaml'

const here = dirname(fileURLToPath(import.meta.url))
export const SCHEMA_PATH = join(here, '../schema/compose-spec.json')

/** A port of `ports:` in its long form. */
export type PortEntry = { host_ip?: string; published?: string | number; target?: string | number; protocol?: string }
/** A service as parsed: typed where the checks read it (the schema, not TypeScript, validates the rest). */
export type ComposeService = {
  [key: string]: unknown
  build?: { context?: string; dockerfile?: string; target?: string; args?: Record<string, string | undefined> }
  image?: string
  restart?: string
  healthcheck?: { test?: string[]; disable?: boolean; [key: string]: unknown }
  depends_on?: string[] | Record<string, { condition?: string }>
  ports?: (string | PortEntry)[]
  expose?: (string | number)[]
  volumes?: (string | { source?: string; target?: string })[]
  environment?: Record<string, string | undefined>
}
export type ComposeModel = {
  [key: string]: unknown
  services?: Record<string, ComposeService>
  volumes?: Record<string, unknown>
}
type Mapping = Record<string, unknown>

/** Parses a Compose file's YAML (anchors and `<<` merge keys resolved, as Compose does). */
export function parseComposeYaml(text: string): ComposeModel {
  return parse(text, { merge: true, maxAliasCount: 1000 }) as ComposeModel
}

/** Variables referenced as ${NAME}, ${NAME:-default}, ${NAME-default}, ${NAME:?err}, with their defaults. */
export function referencedVariables(text: string): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>()
  for (const match of text.matchAll(/(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\}/g)) {
    const [, name = '', operator, value = ''] = match
    const defaults = found.get(name) ?? new Set<string>()
    if (operator === ':-' || operator === '-') defaults.add(value)
    found.set(name, defaults)
  }
  return found
}

/**
 * Compose's interpolation of every string in the parsed document: ${NAME}, ${NAME:-default},
 * ${NAME-default}, $NAME, and `$$` for a literal `$`. Unset variables without default become ''.
 */
export function interpolate<T>(value: T, env: Record<string, string | undefined>): T {
  return interpolateValue(value, env) as T
}

function interpolateValue(value: unknown, env: Record<string, string | undefined>): unknown {
  if (typeof value === 'string') {
    return value.replace(
      /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
      (match, name: string, operator: string | undefined, operand: string, bare: string | undefined) => {
        if (match === '$$') return '$'
        if (bare) return env[bare] ?? ''
        const current = env[name]
        if (operator === ':-') return current ? current : operand
        if (operator === '-') return current ?? operand
        if (operator === ':?' && !current) throw new Error(`required variable ${name} is not set: ${operand}`)
        if (operator === ':+') return current ? operand : ''
        return current ?? ''
      },
    )
  }
  if (Array.isArray(value)) return value.map((item) => interpolateValue(item, env))
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolateValue(item, env)]))
  }
  return value
}

const OVERRIDDEN = new Set(['command', 'entrypoint'])

/** The unique key of a port or volume entry, per the specification's merge rules. */
function uniqueKey(attribute: string, entry: string | PortEntry | { target?: string }): string | undefined {
  if (attribute === 'volumes') {
    return typeof entry === 'string' ? (entry.split(':')[1] ?? entry.split(':')[0]) : String(entry.target)
  }
  if (typeof entry === 'string') {
    const parts = entry.split(':')
    const target = parts.pop()
    const published = parts.pop() ?? ''
    const ip = parts.join(':')
    return `${ip}|${published}|${target}`
  }
  const port = entry as PortEntry
  return `${port.host_ip ?? ''}|${port.published ?? ''}|${port.target}|${port.protocol ?? 'tcp'}`
}

/**
 * Merges an override into a base service as the Compose Specification's merge rules describe:
 * mappings merge, sequences append, `command`, `entrypoint` and `healthcheck.test` are replaced,
 * `ports` and `volumes` merge by their unique key.
 */
function mergeService(base: ComposeService, override: ComposeService): ComposeService {
  const merged: Mapping = { ...base }
  for (const [key, value] of Object.entries(override)) {
    const current = merged[key]
    if (OVERRIDDEN.has(key) || current === undefined) merged[key] = value
    else if (key === 'healthcheck') merged[key] = { ...(current as Mapping), ...(value as Mapping) }
    else if (key === 'ports' || key === 'volumes') {
      type Entry = string | PortEntry
      const byKey = new Map((current as Entry[]).map((entry) => [uniqueKey(key, entry), entry]))
      for (const entry of value as Entry[]) byKey.set(uniqueKey(key, entry), entry)
      merged[key] = [...byKey.values()]
    } else if (Array.isArray(current) && Array.isArray(value)) merged[key] = [...current, ...value]
    else if (isMapping(current) && isMapping(value)) merged[key] = mergeMappings(current, value)
    else merged[key] = value
  }
  return merged as ComposeService
}

function isMapping(value: unknown): value is Mapping {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function mergeMappings(base: Mapping, override: Mapping): Mapping {
  const merged: Mapping = { ...base }
  for (const [key, value] of Object.entries(override)) {
    const current = merged[key]
    merged[key] = isMapping(current) && isMapping(value) ? mergeMappings(current, value) : value
  }
  return merged
}

/** The model Compose builds from `-f base -f override`. */
export function mergeCompose(base: ComposeModel, override: ComposeModel): ComposeModel {
  const merged = mergeMappings(base, { ...override, services: {} }) as ComposeModel
  const services: Record<string, ComposeService> = { ...base.services }
  for (const [name, service] of Object.entries(override.services ?? {})) {
    const current = services[name]
    services[name] = current ? mergeService(current, service) : service
  }
  merged.services = services
  return merged
}

let validator: ValidateFunction | undefined
/** Errors of the document against the Compose Specification's schema ([] when valid). */
export function schemaErrors(document: unknown): string[] {
  if (!validator) {
    const schema = JSON.parse(readFileSync(SCHEMA_PATH, 'utf8'))
    // The schema names its draft by an https URL Ajv does not know; it is draft-07.
    delete schema.$schema
    const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false })
    validator = ajv.compile(schema)
  }
  if (validator(document)) return []
  return (validator.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`)
}

const longRunning = (service: ComposeService) => service.restart !== 'no'

type DependsOn = (service: ComposeService) => Record<string, { condition?: string }>

/**
 * The stack's own rules, which the schema cannot express, for an interpolated, merged Compose model;
 * `images.imageHealthcheck` says whether a service's image declares a HEALTHCHECK.
 */
export function composeInvariants(
  model: ComposeModel,
  images: { imageHealthcheck: (service: ComposeService) => boolean },
): string[] {
  const problems: string[] = []
  const services = model.services ?? {}
  const dependsOn: DependsOn = (service) =>
    Array.isArray(service.depends_on)
      ? Object.fromEntries(service.depends_on.map((name) => [name, { condition: 'service_started' }]))
      : (service.depends_on ?? {})
  const hasHealthcheck = (service: ComposeService) =>
    service.healthcheck?.disable !== true &&
    (service.healthcheck?.test !== undefined || images.imageHealthcheck(service))

  for (const [name, service] of Object.entries(services)) {
    if (!service.build && !service.image) problems.push(`${name}: neither build nor image`)
    if (longRunning(service) && !hasHealthcheck(service)) {
      problems.push(`${name}: a long-running service without a healthcheck (compose or image HEALTHCHECK)`)
    }
    if (longRunning(service) && !service.restart) problems.push(`${name}: no restart policy`)
    for (const [dependency, { condition }] of Object.entries(dependsOn(service))) {
      const target = services[dependency]
      if (!target) {
        problems.push(`${name}: depends on ${dependency}, which is not a service`)
        continue
      }
      if (condition === 'service_healthy' && !hasHealthcheck(target)) {
        problems.push(`${name}: waits for ${dependency} to be healthy, but ${dependency} has no healthcheck`)
      }
      if (condition === 'service_completed_successfully' && longRunning(target)) {
        problems.push(`${name}: waits for ${dependency} to complete, but ${dependency} is long-running`)
      }
      if (condition === 'service_started') {
        problems.push(`${name}: depends on ${dependency} without waiting for it (use service_healthy)`)
      }
    }
    for (const volume of service.volumes ?? []) {
      const source = typeof volume === 'string' ? volume.split(':')[0] : volume.source
      const isNamed = source && !source.startsWith('.') && !source.startsWith('/') && !source.startsWith('~')
      if (isNamed && !(model.volumes && source in model.volumes)) {
        problems.push(`${name}: volume ${source} is not declared under volumes`)
      }
    }
  }
  // `docker compose up --wait` only accepts a one-shot container that exited when a running service
  // waits for it to complete successfully.
  for (const [name, service] of Object.entries(services)) {
    if (longRunning(service)) continue
    const adopted = Object.values(services).some(
      (other) => longRunning(other) && dependsOn(other)[name]?.condition === 'service_completed_successfully',
    )
    if (!adopted) {
      problems.push(`${name}: one-shot, but no long-running service waits for it (make up --wait would fail)`)
    }
  }
  const published = new Map()
  for (const [name, service] of Object.entries(services)) {
    for (const port of service.ports ?? []) {
      if (typeof port !== 'string') continue
      const parts = port.split(':')
      if (parts.length < 2) continue
      parts.pop()
      const key = `${parts.length > 1 ? parts[0] : '0.0.0.0'}:${parts.at(-1)}`
      if (published.has(key)) problems.push(`${name}: host port ${key} is already published by ${published.get(key)}`)
      else published.set(key, name)
    }
  }
  const cycle = findCycle(services, dependsOn)
  if (cycle) problems.push(`depends_on cycle: ${cycle.join(' → ')}`)
  return problems
}

function findCycle(services: Record<string, ComposeService>, dependsOn: DependsOn): string[] | null {
  const state = new Map<string, 'visiting' | 'done'>()
  const visit = (name: string, path: string[]): string[] | null => {
    if (state.get(name) === 'done') return null
    if (state.get(name) === 'visiting') return [...path.slice(path.indexOf(name)), name]
    state.set(name, 'visiting')
    for (const dependency of Object.keys(dependsOn(services[name] ?? {}))) {
      const found = visit(dependency, [...path, name])
      if (found) return found
    }
    state.set(name, 'done')
    return null
  }
  for (const name of Object.keys(services)) {
    const found = visit(name, [])
    if (found) return found
  }
  return null
}

/** Reads KEY=value lines (comments and blank lines skipped; `# KEY=value` lines are reported as commented). */
export function parseEnvFile(text: string): { values: Record<string, string>; commented: Set<string> } {
  const values: Record<string, string> = {}
  const commented = new Set<string>()
  for (const line of text.split('\n')) {
    const active = line.match(/^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/)
    if (active?.[1] !== undefined) values[active[1]] = active[2] ?? ''
    const inactive = line.match(/^#\s*([A-Z_][A-Z0-9_]*)=/)
    if (inactive?.[1] !== undefined) commented.add(inactive[1])
  }
  return { values, commented }
}
