// emulator-lite CLI: `tsx infra/emulator-lite/src/cli.ts [--host H] [--firestore-port N] [--storage-port N] [--data DIR | --in-memory]`
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { startEmulatorLite } from './index.ts'

const { values } = parseArgs({
  options: {
    host: { type: 'string', default: process.env.EMULATOR_LITE_HOST ?? '127.0.0.1' },
    'firestore-port': { type: 'string', default: process.env.FIRESTORE_PORT ?? '8080' },
    'storage-port': { type: 'string', default: process.env.STORAGE_PORT ?? '9199' },
    data: { type: 'string', default: process.env.EMULATOR_LITE_DATA },
    'in-memory': { type: 'boolean', default: false },
  },
})
const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..')
const firestorePort = Number(values['firestore-port'])
const storagePort = Number(values['storage-port'])

try {
  const emulator = await startEmulatorLite({
    host: values.host,
    firestorePort,
    storagePort,
    inMemory: values['in-memory'],
    dataDir: values.data ?? resolve(repoRoot, '.data/emulator-lite'),
  })
  console.log(
    `emulator-lite ready firestore=http://${emulator.host}:${emulator.firestorePort} storage=http://${emulator.host}:${emulator.storagePort}`,
  )
  const stop = () => emulator.close().then(() => process.exit(0))
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'EADDRINUSE') {
    const port = (error as { port?: number }).port
    const variable = port === storagePort ? 'STORAGE_PORT' : 'FIRESTORE_PORT'
    console.error(
      `Port ${port} is already in use (${variable}). Stop what is using it, or set ${variable} to another port.`,
    )
  } else console.error(`emulator-lite failed to start: ${(error as Error).message}`)
  process.exit(1)
}
