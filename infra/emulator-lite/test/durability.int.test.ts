import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { freePort } from '../../stack/src/ports.ts'
import { connectSdks } from './sdk.ts'

const CLI = join(import.meta.dirname, '../src/cli.ts')

async function startCli(dataDir: string, firestorePort: number, storagePort: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      CLI,
      '--firestore-port',
      String(firestorePort),
      '--storage-port',
      String(storagePort),
      '--data',
      dataDir,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  while (!output.includes('emulator-lite ready')) {
    if (child.exitCode !== null) throw new Error(`emulator-lite exited: ${output}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return child
}

test('every acknowledged write survives kill -9 in the middle of a write burst', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'emulator-lite-durability-'))
  const firestorePort = await freePort()
  const storagePort = await freePort()
  let child = await startCli(dataDir, firestorePort, storagePort)
  const sdk = connectSdks(`127.0.0.1:${firestorePort}`, `127.0.0.1:${storagePort}`)
  const acknowledged: string[] = []
  try {
    const burst = (async () => {
      for (let i = 0; i < 10_000; i++) {
        const id = `doc-${i}`
        await sdk.admin.collection('burst').doc(id).set({ i })
        acknowledged.push(id)
      }
    })().catch(() => undefined)
    while (acknowledged.length < 150) await new Promise((resolve) => setTimeout(resolve, 5))
    child.kill('SIGKILL')
    await once(child, 'exit')
    await burst
    expect(acknowledged.length).toBeGreaterThanOrEqual(150)

    child = await startCli(dataDir, firestorePort, storagePort)
    const snapshot = await sdk.admin.collection('burst').get()
    const stored = new Set(snapshot.docs.map((doc) => doc.id))
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([])
  } finally {
    child.kill('SIGKILL')
    await sdk.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}, 120_000)
