import { startTestStack } from '@bosted/stack/testing'

/**
 * Vitest global setup for the `integration` project: the real Auth emulator and emulator-lite
 * (in memory) on free ports. Their hosts (FIREBASE_AUTH_EMULATOR_HOST, FIRESTORE_EMULATOR_HOST,
 * FIREBASE_STORAGE_EMULATOR_HOST: emulator-lite's admin listener, where firebase-admin's owner
 * credential works) reach every test file through process.env, which the test workers inherit;
 * each file isolates itself with its own project id. Browser-side clients use the public ports.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const stack = await startTestStack({ serveWeb: false, seed: false, build: false, api: false })
  for (const [key, value] of Object.entries(stack.env)) {
    if (value !== undefined) process.env[key] = value
  }
  return () => stack.stop()
}
