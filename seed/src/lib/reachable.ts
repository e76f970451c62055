import type { EmulatorHosts } from '../env.ts'

const NAMES: Record<keyof EmulatorHosts, string> = {
  auth: 'Auth emulator (FIREBASE_AUTH_EMULATOR_HOST)',
  firestore: 'Firestore emulator (FIRESTORE_EMULATOR_HOST)',
  storage: 'Storage emulator (FIREBASE_STORAGE_EMULATOR_HOST)',
}

/**
 * Fails fast, naming the emulator, when one is not listening: the SDKs would otherwise retry an
 * unreachable Firestore for a long while before giving up.
 */
export async function assertEmulatorsReachable(emulators: EmulatorHosts): Promise<void> {
  const unreachable: string[] = []
  await Promise.all(
    (Object.keys(NAMES) as (keyof EmulatorHosts)[]).map(async (key) => {
      const host = emulators[key]
      if (!host) return
      try {
        await fetch(`http://${host}/`, { signal: AbortSignal.timeout(3000) })
      } catch {
        unreachable.push(`${NAMES[key]} at ${host}`)
      }
    }),
  )
  if (unreachable.length > 0) {
    throw new Error(`cannot reach ${unreachable.join(', ')}; is the stack running (make start)?`)
  }
}
