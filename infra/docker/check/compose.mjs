// Static checks of Compose files without a Docker engine: interpolation, the documented merge of an
// override file, validation against the Compose Specification's JSON schema, and the stack's own
// invariants (healthchecks, dependency conditions, ports, volumes).
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Ajv } from 'ajv'
import { parse } from 'yaml'

const here = dirname(fileURLToPath(import.meta.url))
export const SCHEMA_PATH = join(here, '../schema/compose-spec.json')

/** Parses a Compose file's YAML (anchors and `<<` merge keys resolved, as Compose does). */
export function parseComposeYaml(text) {
  return parse(text, { merge: true, maxAliasCount: 1000 })
}

/** Variables referenced as ${NAME}, ${NAME:-default}, ${NAME-default}, ${NAME:?err}, with their defaults. */
export function referencedVariables(text) {
  const found = new Map()
  for (const match of text.matchAll(/(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\}/g)) {
    const [, name, operator, value] = match
    const defaults = found.get(name) ?? new Set()
    if (operator === ':-' || operator === '-') defaults.add(value)
    found.set(name, defaults)
  }
  return found
}

/**
 * Compose's interpolation of every string in the parsed document: ${NAME}, ${NAME:-default},
 * ${NAME-default}, $NAME, and `$$` for a literal `$`. Unset variables without default become ''.
 * @param {unknown} value
 * @param {Record<string, string | undefined>} env
 */
export function interpolate(value, env) {
  if (typeof value === 'string') {
    return value.replace(
      /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
      (match, name, operator, operand, bare) => {
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
  if (Array.isArray(value)) return value.map((item) => interpolate(item, env))
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolate(item, env)]))
  }
  return value
}

const OVERRIDDEN = new Set(['command', 'entrypoint'])

/** The unique key of a port or volume entry, per the specification's merge rules. */
function uniqueKey(attribute, entry) {
  if (attribute === 'volumes') {
    return typeof entry === 'string' ? (entry.split(':')[1] ?? entry.split(':')[0]) : entry.target
  }
  if (typeof entry === 'string') {
    const parts = entry.split(':')
    const target = parts.pop()
    const published = parts.pop() ?? ''
    const ip = parts.join(':')
    return `${ip}|${published}|${target}`
  }
  return `${entry.host_ip ?? ''}|${entry.published ?? ''}|${entry.target}|${entry.protocol ?? 'tcp'}`
}

/**
 * Merges an override into a base service as the Compose Specification's merge rules describe:
 * mappings merge, sequences append, `command`, `entrypoint` and `healthcheck.test` are replaced,
 * `ports` and `volumes` merge by their unique key.
 */
function mergeService(base, override) {
  const merged = { ...base }
  for (const [key, value] of Object.entries(override)) {
    const current = merged[key]
    if (OVERRIDDEN.has(key) || current === undefined) merged[key] = value
    else if (key === 'healthcheck') merged[key] = { ...current, ...value }
    else if (key === 'ports' || key === 'volumes') {
      const byKey = new Map(current.map((entry) => [uniqueKey(key, entry), entry]))
      for (const entry of value) byKey.set(uniqueKey(key, entry), entry)
      merged[key] = [...byKey.values()]
    } else if (Array.isArray(current) && Array.isArray(value)) merged[key] = [...current, ...value]
    else if (isMapping(current) && isMapping(value)) merged[key] = mergeMappings(current, value)
    else merged[key] = value
  }
  return merged
}

function isMapping(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function mergeMappings(base, override) {
  const merged = { ...base }
  for (const [key, value] of Object.entries(override)) {
    merged[key] = isMapping(merged[key]) && isMapping(value) ? mergeMappings(merged[key], value) : value
  }
  return merged
}

/** The model Compose builds from `-f base -f override`. */
export function mergeCompose(base, override) {
  const merged = mergeMappings(base, { ...override, services: {} })
  merged.services = { ...base.services }
  for (const [name, service] of Object.entries(override.services ?? {})) {
    merged.services[name] = name in merged.services ? mergeService(merged.services[name], service) : service
  }
  return merged
}

let validator
/** Errors of the document against the Compose Specification's schema ([] when valid). */
export function schemaErrors(document) {
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

const longRunning = (service) => service.restart !== 'no'

/**
 * The stack's own rules, which the schema cannot express.
 * @param {any} model an interpolated, merged Compose model
 * @param {{ imageHealthcheck: (service: any) => boolean }} images whether a service's image declares a HEALTHCHECK
 */
export function composeInvariants(model, images) {
  const problems = []
  const services = model.services ?? {}
  const names = Object.keys(services)
  const dependsOn = (service) =>
    Array.isArray(service.depends_on)
      ? Object.fromEntries(service.depends_on.map((name) => [name, { condition: 'service_started' }]))
      : (service.depends_on ?? {})
  const hasHealthcheck = (service) =>
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
    const adopted = names.some(
      (other) =>
        longRunning(services[other]) &&
        dependsOn(services[other])[name]?.condition === 'service_completed_successfully',
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

function findCycle(services, dependsOn) {
  const state = new Map()
  const visit = (name, path) => {
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
export function parseEnvFile(text) {
  const values = {}
  const commented = new Set()
  for (const line of text.split('\n')) {
    const active = line.match(/^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/)
    if (active) values[active[1]] = active[2]
    const inactive = line.match(/^#\s*([A-Z_][A-Z0-9_]*)=/)
    if (inactive) commented.add(inactive[1])
  }
  return { values, commented }
}
