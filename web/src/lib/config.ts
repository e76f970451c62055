import { da } from '@bosted/domain/messages/da'

/** The keys the Firebase web config must carry (REQ-CONFIG-1). */
export const REQUIRED_FIREBASE_KEYS = ['apiKey', 'authDomain', 'projectId', 'appId', 'storageBucket'] as const
type FirebaseKey = (typeof REQUIRED_FIREBASE_KEYS)[number]

export type FirebaseWebConfig = Record<FirebaseKey, string>
export type RuntimeConfig = {
  /** `null` when a required key is missing: no cloud service is set up then. */
  firebase: FirebaseWebConfig | null
  missingKeys: FirebaseKey[]
  emulators: { auth: string | null; firestore: string | null; storage: string | null }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null
const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null)

/**
 * Reads the runtime configuration served as /config.json (one build, every environment). Checked by
 * hand rather than with zod to keep zod out of the sign-in page's bundle.
 */
export function parseRuntimeConfig(raw: unknown): RuntimeConfig {
  const firebase = isObject(raw) && isObject(raw.firebase) ? raw.firebase : {}
  const emulators = isObject(raw) && isObject(raw.emulators) ? raw.emulators : {}
  const missingKeys = REQUIRED_FIREBASE_KEYS.filter((key) => text(firebase[key]) === null)
  return {
    firebase:
      missingKeys.length === 0
        ? (Object.fromEntries(REQUIRED_FIREBASE_KEYS.map((key) => [key, firebase[key]])) as FirebaseWebConfig)
        : null,
    missingKeys,
    emulators: { auth: text(emulators.auth), firestore: text(emulators.firestore), storage: text(emulators.storage) },
  }
}

/**
 * Where a Firestore or Storage backend configured in /config.json is: `host:port` (an emulator over
 * plain http, the developer's stack) or `https://host[:port]` (a pilot's one HTTPS origin, which
 * serves both under its own paths: the SDKs then talk TLS to it as they would to Google).
 */
export type BackendEndpoint = { ssl: false; hostname: string; port: number } | { ssl: true; host: string }

export function backendEndpoint(value: string): BackendEndpoint {
  if (value.startsWith('https://')) return { ssl: true, host: new URL(value).host }
  const separator = value.lastIndexOf(':')
  return { ssl: false, hostname: value.slice(0, separator), port: Number(value.slice(separator + 1)) }
}

let current: RuntimeConfig | null = null

/** Fetches and checks /config.json once; a missing or broken file counts as every key missing. */
export async function loadRuntimeConfig(fetchConfig: typeof fetch = fetch): Promise<RuntimeConfig> {
  let raw: unknown = null
  try {
    const response = await fetchConfig('/config.json', { cache: 'no-cache' })
    if (response.ok) raw = await response.json()
  } catch {
    raw = null
  }
  current = parseRuntimeConfig(raw)
  if (current.missingKeys.length > 0) console.error(da.errors.missingFirebaseConfig, current.missingKeys)
  return current
}

export function getRuntimeConfig(): RuntimeConfig {
  if (current === null) throw new Error('the runtime configuration is read before loadRuntimeConfig() finished')
  return current
}

/** For tests: install a configuration without fetching. */
export function setRuntimeConfig(config: RuntimeConfig | null): void {
  current = config
}
