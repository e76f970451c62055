import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type EmulatorLite, startEmulatorLite } from '../src/index.ts'
import { type OfficialFirestore, startOfficialFirestore } from './official-emulator.ts'

/**
 * Google's Firestore emulator and an in-memory emulator-lite, both enforcing `rules`, for the stream
 * parity tests (gRPC, Write, WebChannel). emulator-lite takes unsigned tokens here as the official
 * emulator does (the SDKs' mock tokens); that forgeries are refused is proven by the integration tests.
 * `close` stops both and removes the rules' folder.
 */
export async function startBoth(
  name: string,
  rules: string,
): Promise<{ official: OfficialFirestore; lite: EmulatorLite; close: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), `${name}-`))
  writeFileSync(join(dir, 'firestore.rules'), rules)
  let official: OfficialFirestore | undefined
  let lite: EmulatorLite | undefined
  const close = async () => {
    await lite?.close()
    await official?.close()
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    official = await startOfficialFirestore({ rules: join(dir, 'firestore.rules') })
    lite = await startEmulatorLite({
      firestorePort: 0,
      storagePort: 0,
      authPort: 0,
      inMemory: true,
      accessLog: false,
      firestoreRules: join(dir, 'firestore.rules'),
      acceptUnsignedTokens: true,
    })
    return { official, lite, close }
  } catch (error) {
    await close()
    throw error
  }
}
