// emulator-lite CLI: `tsx infra/emulator-lite/src/cli.ts [--host H] [--firestore-port N] [--storage-port N]
//   [--auth-port N] [--project ID] [--import-auth DIR] [--firestore-rules FILE] [--storage-rules FILE]
//   [--data DIR | --in-memory] [--service-account-dir DIR] [--no-access-log] [--access-log-retention-days N]
//   [--admin-port N] [--admin-host H] [--accept-unsigned-tokens] [--rotate-signing-key]`

import { createServer } from 'node:net'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { startEmulatorLite } from './index.ts'
import { RulesError } from './rules/index.ts'

const { values } = parseArgs({
  options: {
    host: { type: 'string', default: process.env.EMULATOR_LITE_HOST ?? '127.0.0.1' },
    'firestore-port': { type: 'string', default: process.env.FIRESTORE_PORT ?? '8080' },
    'storage-port': { type: 'string', default: process.env.STORAGE_PORT ?? '9199' },
    'auth-port': { type: 'string' },
    /** The privileged listener (Auth, Firestore, Storage on one port) for the api, the seed and tools. */
    'admin-port': { type: 'string' },
    /** 127.0.0.1 natively; 0.0.0.0 only inside a container, and never published. */
    'admin-host': { type: 'string', default: process.env.EMULATOR_ADMIN_HOST ?? '127.0.0.1' },
    /** Project of Auth calls that name none (web SDK calls). */
    project: {
      type: 'string',
      default: process.env.FIREBASE_PROJECT_ID ?? process.env.GCLOUD_PROJECT ?? 'demo-project',
    },
    /** An official Auth emulator export to import while the database has no accounts. */
    'import-auth': { type: 'string' },
    /** Security rules, enforced for every request without the owner credential. */
    'firestore-rules': { type: 'string', default: process.env.FIRESTORE_RULES },
    'storage-rules': { type: 'string', default: process.env.STORAGE_RULES },
    data: { type: 'string', default: process.env.EMULATOR_LITE_DATA },
    'in-memory': { type: 'boolean', default: false },
    /** Keep service-account.json here instead of the data directory (with --in-memory: write it here). */
    'service-account-dir': { type: 'string' },
    /** The access log of persons' data is on by default. */
    'no-access-log': { type: 'boolean', default: false },
    /** Days to keep access-log entries (default: keep all). */
    'access-log-retention-days': { type: 'string', default: process.env.ACCESS_LOG_RETENTION_DAYS },
    /** Believe unsigned tokens too (rules-unit-testing, the official Auth emulator); never for a pilot. */
    'accept-unsigned-tokens': { type: 'boolean', default: false },
    /** A new signing key per set; the old ones verify until their tokens expire. */
    'rotate-signing-key': { type: 'boolean', default: false },
  },
})
const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..')
const firestorePort = Number(values['firestore-port'])
const storagePort = Number(values['storage-port'])
// Only an explicit --auth-port is binding. AUTH_PORT or 9099 is a preference: callers that predate
// Auth (scripts, benchmarks, the Docker image running firebase-tools' Auth beside this) get a free
// port instead of failing when it is taken.
const preferredAuthPort = Number(process.env.AUTH_PORT ?? 9099)
const authPort =
  values['auth-port'] !== undefined
    ? Number(values['auth-port'])
    : (await portIsFree(preferredAuthPort, values.host))
      ? preferredAuthPort
      : 0
// The same for the admin listener: --admin-port binds; EMULATOR_ADMIN_PORT or 9098 is a preference
// (the ready line names the port taken).
const preferredAdminPort = Number(process.env.EMULATOR_ADMIN_PORT ?? 9098)
const adminPort =
  values['admin-port'] !== undefined
    ? Number(values['admin-port'])
    : (await portIsFree(preferredAdminPort, values['admin-host']))
      ? preferredAdminPort
      : 0

try {
  const emulator = await startEmulatorLite({
    host: values.host,
    firestorePort,
    storagePort,
    authPort,
    adminPort,
    adminHost: values['admin-host'],
    authProjectId: values.project,
    authImportFrom: values['import-auth'],
    firestoreRules: values['firestore-rules'],
    storageRules: values['storage-rules'],
    inMemory: values['in-memory'],
    ...(values['service-account-dir'] ? { serviceAccountDir: resolve(values['service-account-dir']) } : {}),
    dataDir: values.data ?? resolve(repoRoot, '.data/emulator-lite'),
    accessLog: !values['no-access-log'],
    accessLogRetentionDays: retentionDays(values['access-log-retention-days']),
    acceptUnsignedTokens: values['accept-unsigned-tokens'],
    rotateSigningKey: values['rotate-signing-key'],
  })
  if (emulator.authImport) {
    const { imported, failed, source } = emulator.authImport
    console.log(
      `emulator-lite imported ${imported} Auth accounts from ${source}${failed.length ? ` (${failed.length} refused)` : ''}`,
    )
    for (const failure of failed) console.log(`  account ${failure.index}: ${failure.message}`)
  }
  console.log(
    `emulator-lite ready firestore=http://${emulator.host}:${emulator.firestorePort} storage=http://${emulator.host}:${emulator.storagePort} auth=http://${emulator.host}:${emulator.authPort} admin=http://${emulator.adminHost}:${emulator.adminPort} tokens=${emulator.tokens}${emulator.adminSecretFile ? ` admin-secret-file=${emulator.adminSecretFile}` : ''}`,
  )
  const stop = () => emulator.close().then(() => process.exit(0))
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'EADDRINUSE') {
    const port = (error as { port?: number }).port
    const variable =
      port === storagePort
        ? 'STORAGE_PORT'
        : port === authPort
          ? 'AUTH_PORT'
          : port === adminPort
            ? 'EMULATOR_ADMIN_PORT'
            : 'FIRESTORE_PORT'
    console.error(
      `Port ${port} is already in use (${variable}). Stop what is using it, or set ${variable} to another port.`,
    )
  } else if (error instanceof RulesError) console.error(`emulator-lite: security rules rejected: ${error.message}`)
  else console.error(`emulator-lite failed to start: ${(error as Error).message}`)
  process.exit(1)
}

/** A positive whole number of days, or null (keep all) when unset or empty. */
function retentionDays(raw: string | undefined): number | null {
  if (raw === undefined || raw.trim() === '') return null
  const days = Number(raw)
  if (!Number.isInteger(days) || days < 1) {
    console.error(`emulator-lite: --access-log-retention-days must be a whole number of days (got ${raw})`)
    process.exit(1)
  }
  return days
}

function portIsFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolvePort) => {
    const server = createServer()
    server.once('error', () => resolvePort(false))
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolvePort(true)))
  })
}
