// emulator-lite CLI: `tsx infra/emulator-lite/src/cli.ts [options]`; `--help` lists them (src/cli-options.ts).

import { createServer } from 'node:net'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadAccessClassifier } from './audit/classifier.ts'
import { smtpConfigFromEnv } from './auth/smtp.ts'
import { CliUsageError, formatHelp, parseCli } from './cli-options.ts'
import { watchEventLoop } from './http/event-loop-watch.ts'
import { startEmulatorLite } from './index.ts'
import { RulesError } from './rules/index.ts'

const values = parseCommandLine()
if (values.help) {
  process.stdout.write(formatHelp())
  process.exit(0)
}
watchEventLoop('emulator-lite')
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
    tokenDownloadsNeedRules: prefixList(values['token-downloads-need-rules']),
    inMemory: values['in-memory'],
    ...(values['service-account-dir'] ? { serviceAccountDir: resolve(values['service-account-dir']) } : {}),
    dataDir: values.data ?? resolve(repoRoot, '.data/emulator-lite'),
    accessLog: !values['no-access-log'],
    accessClassifier: await loadAccessClassifier(values['access-classifier']),
    accessLogRetentionDays: retentionDays(values['access-log-retention-days']),
    acceptUnsignedTokens: values['accept-unsigned-tokens'],
    rotateSigningKey: values['rotate-signing-key'],
    storageUploads: { maxBytes: maxUploadBytes(values['max-upload-bytes']) },
    ...reserveBytes(values['disk-reserve-mib']),
    passwordReset: { smtp: smtpConfigFromEnv(process.env), resetUrl: values['password-reset-url'] },
    disableSignUp: values['disable-sign-up'],
  })
  if (emulator.authImport) {
    const { imported, failed, source } = emulator.authImport
    console.log(
      `emulator-lite imported ${imported} Auth accounts from ${source}${failed.length ? ` (${failed.length} refused)` : ''}`,
    )
    for (const failure of failed) console.log(`  account ${failure.index}: ${failure.message}`)
  }
  if (!values['no-access-log'] && !values['access-classifier'])
    console.log(
      "emulator-lite access log: no --access-classifier, so no document is anyone's data and nothing is logged",
    )
  if (!values['no-access-log'] && !values['in-memory']) {
    const days = retentionDays(values['access-log-retention-days'])
    // A deliberate default (ADR 0019), said out loud so an operator sees what the log will do.
    console.log(
      days === null
        ? 'emulator-lite access log: keeps every entry (set --access-log-retention-days or ACCESS_LOG_RETENTION_DAYS to prune)'
        : `emulator-lite access log: keeps ${days} days (older entries pruned at start and daily, with a marker)`,
    )
  }
  console.log(
    `emulator-lite ready firestore=http://${emulator.host}:${emulator.firestorePort} storage=http://${emulator.host}:${emulator.storagePort} auth=http://${emulator.host}:${emulator.authPort} admin=http://${emulator.adminHost}:${emulator.adminPort} tokens=${emulator.tokens}${values['disable-sign-up'] ? ' sign-up=disabled' : ''}${emulator.adminSecretFile ? ` admin-secret-file=${emulator.adminSecretFile}` : ''}`,
  )
  const smtp = smtpConfigFromEnv(process.env)
  if (smtp) console.log(`emulator-lite sends password-reset links through smtp://${smtp.host}:${smtp.port}`)
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

/** `persons/,other/` as a list; empty entries dropped. */
function prefixList(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((prefix) => prefix.trim())
    .filter((prefix) => prefix !== '')
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

function maxUploadBytes(raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined
  const bytes = Number(raw)
  if (!Number.isSafeInteger(bytes) || bytes < 1) {
    console.error(`emulator-lite: --max-upload-bytes must be a whole number of bytes (got ${raw})`)
    process.exit(1)
  }
  return bytes
}

/** `--disk-reserve-mib` in bytes, or nothing (the default) when unset or empty. */
function reserveBytes(raw: string | undefined): { diskReserveBytes?: number } {
  if (raw === undefined || raw.trim() === '') return {}
  const mib = Number(raw)
  if (!Number.isInteger(mib) || mib < 0) {
    console.error(`emulator-lite: --disk-reserve-mib must be a whole number of MiB (got ${raw})`)
    process.exit(1)
  }
  return { diskReserveBytes: mib * 1024 * 1024 }
}

function parseCommandLine(): ReturnType<typeof parseCli> {
  try {
    const parsed = parseCli(process.argv.slice(2))
    for (const name of ['firestore-port', 'storage-port', 'auth-port', 'admin-port'] as const) {
      const raw = parsed[name]
      if (raw !== undefined && !/^\d{1,5}$/.test(raw))
        throw new CliUsageError(`--${name} must be a port number (got ${raw})`)
    }
    return parsed
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error
    console.error(`emulator-lite: ${error.message} (see --help)`)
    process.exit(2)
  }
}

function portIsFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolvePort) => {
    const server = createServer()
    server.once('error', () => resolvePort(false))
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolvePort(true)))
  })
}
