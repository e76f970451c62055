import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { startEmulatorLite } from '../src/index.ts'

test('an in-memory emulator keeps its service account in serviceAccountDir, for the api to sign custom tokens', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'emulator-lite-sa-'))
  try {
    const first = await startEmulatorLite({ inMemory: true, firestorePort: 0, storagePort: 0, serviceAccountDir: dir })
    const file = join(dir, 'service-account.json')
    try {
      expect(statSync(file).mode & 0o777).toBe(0o600)
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(first.serviceAccount)
    } finally {
      await first.close()
    }
    // The next start trusts the same key: custom tokens signed with the file still work.
    const second = await startEmulatorLite({ inMemory: true, firestorePort: 0, storagePort: 0, serviceAccountDir: dir })
    try {
      expect(second.serviceAccount).toEqual(first.serviceAccount)
    } finally {
      await second.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
