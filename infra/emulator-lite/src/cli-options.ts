import { type ParseArgsConfig, parseArgs } from 'node:util'

/**
 * Every option of the CLI, once: parseArgs reads `type`/`default`/`multiple`, `--help` prints `arg` and
 * `help` (parseArgs ignores those two). A new option is one line here.
 */
export const CLI_OPTIONS = {
  host: {
    type: 'string',
    default: process.env.EMULATOR_LITE_HOST ?? '127.0.0.1',
    arg: 'HOST',
    help: 'address the listeners bind to (env EMULATOR_LITE_HOST)',
  },
  'firestore-port': {
    type: 'string',
    default: process.env.FIRESTORE_PORT ?? '8080',
    arg: 'PORT',
    help: 'Firestore REST port (env FIRESTORE_PORT)',
  },
  'storage-port': {
    type: 'string',
    default: process.env.STORAGE_PORT ?? '9199',
    arg: 'PORT',
    help: 'Cloud Storage port (env STORAGE_PORT)',
  },
  'auth-port': {
    type: 'string',
    arg: 'PORT',
    help: 'Auth port; without it AUTH_PORT or 9099 if free, else any free port',
  },
  'admin-port': {
    type: 'string',
    arg: 'PORT',
    help: 'the privileged listener (Auth, Firestore, Storage) for the api, seed and tools; without it EMULATOR_ADMIN_PORT or 9098 if free, else any free port',
  },
  'admin-host': {
    type: 'string',
    default: process.env.EMULATOR_ADMIN_HOST ?? '127.0.0.1',
    arg: 'HOST',
    help: 'address the admin listener binds to: loopback natively, the container network in Compose, never published (env EMULATOR_ADMIN_HOST)',
  },
  project: {
    type: 'string',
    default: process.env.FIREBASE_PROJECT_ID ?? process.env.GCLOUD_PROJECT ?? 'demo-project',
    arg: 'ID',
    help: 'project of Auth calls that name none (env FIREBASE_PROJECT_ID, GCLOUD_PROJECT)',
  },
  'import-auth': {
    type: 'string',
    arg: 'DIR',
    help: 'official Auth emulator export to import while there are no accounts',
  },
  'firestore-rules': {
    type: 'string',
    default: process.env.FIRESTORE_RULES,
    arg: 'FILE',
    help: 'Firestore security rules to enforce (env FIRESTORE_RULES)',
  },
  'storage-rules': {
    type: 'string',
    default: process.env.STORAGE_RULES,
    arg: 'FILE',
    help: 'Storage security rules to enforce (env STORAGE_RULES)',
  },
  'token-downloads-need-rules': {
    type: 'string',
    default: process.env.STORAGE_TOKEN_DOWNLOADS_NEED_RULES,
    arg: 'PREFIXES',
    help: "comma-separated object-name prefixes whose download tokens also need the rules' read (env STORAGE_TOKEN_DOWNLOADS_NEED_RULES)",
  },
  'max-upload-bytes': {
    type: 'string',
    default: process.env.STORAGE_MAX_UPLOAD_BYTES,
    arg: 'N',
    help: 'the most bytes one resumable Storage upload may hold (env STORAGE_MAX_UPLOAD_BYTES; default 64 MiB)',
  },
  data: {
    type: 'string',
    default: process.env.EMULATOR_LITE_DATA,
    arg: 'DIR',
    help: 'data directory (env EMULATOR_LITE_DATA; default .data/emulator-lite)',
  },
  'in-memory': { type: 'boolean', default: false, help: 'keep everything in memory, nothing on disk' },
  'service-account-dir': {
    type: 'string',
    arg: 'DIR',
    help: 'keep service-account.json here instead of the data directory (with --in-memory: write it here for the api and seed)',
  },
  'accept-unsigned-tokens': {
    type: 'boolean',
    default: false,
    help: 'also believe unsigned tokens (rules-unit-testing, the official Auth emulator); tests only, never a pilot',
  },
  'rotate-signing-key': {
    type: 'boolean',
    default: false,
    help: 'start with a new signing key per set; the old ones verify until their tokens expire',
  },
  'disable-sign-up': {
    type: 'boolean',
    default: process.env.EMULATOR_LITE_DISABLE_SIGN_UP === 'true',
    help: 'nobody signs themselves up: the public Auth listener refuses accounts:signUp and anonymous sign-in (a pilot; env EMULATOR_LITE_DISABLE_SIGN_UP=true)',
  },
  'access-classifier': {
    type: 'string',
    default: process.env.EMULATOR_LITE_ACCESS_CLASSIFIER,
    arg: 'MODULE',
    help: "module saying which documents and objects are a person's data for the access log, e.g. @bosted/domain/access-classifier (env EMULATOR_LITE_ACCESS_CLASSIFIER; default: none is, nothing is logged)",
  },
  'no-access-log': { type: 'boolean', default: false, help: "switch off the access log of persons' data" },
  'access-log-retention-days': {
    type: 'string',
    default: process.env.ACCESS_LOG_RETENTION_DAYS,
    arg: 'N',
    help: 'days to keep access-log entries (env ACCESS_LOG_RETENTION_DAYS; default keep all)',
  },
  'disk-reserve-mib': {
    type: 'string',
    default: process.env.EMULATOR_DISK_RESERVE_MIB,
    arg: 'N',
    help: 'MiB kept in the data directory and released when the disk fills, so reads and their access log go on (env EMULATOR_DISK_RESERVE_MIB; default 16, 0 for none)',
  },
  'password-reset-url': {
    type: 'string',
    default: process.env.PASSWORD_RESET_URL,
    arg: 'URL',
    help: 'the page password-reset links open, e.g. https://bosted.kommune.dk:8443/reset-password (env PASSWORD_RESET_URL); mail goes through PILOT_SMTP_HOST/PORT/USER/PASSWORD/FROM when set',
  },
  help: { type: 'boolean', short: 'h', default: false, help: 'print these options and exit' },
} as const satisfies Record<string, NonNullable<ParseArgsConfig['options']>[string] & { arg?: string; help: string }>

/** A command line the CLI cannot run: printed as one line with a pointer to `--help`, exit code 2. */
export class CliUsageError extends Error {}

/** Parses the command line; throws CliUsageError (never parseArgs' own TypeError) for anything it refuses. */
export function parseCli(args: string[]) {
  try {
    return parseArgs({ args, options: CLI_OPTIONS, strict: true, allowPositionals: false }).values
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const option = /'([^']+)'/.exec(message)?.[1] ?? message
      throw new CliUsageError(`unknown option ${option}`)
    }
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
      const argument = /'([^']+)'/.exec(message)?.[1] ?? message
      throw new CliUsageError(`unexpected argument ${argument}`)
    }
    if (code?.startsWith('ERR_PARSE_ARGS_')) throw new CliUsageError(message.split('\n')[0] as string)
    throw error
  }
}

/** The `--help` text: one line per option, from CLI_OPTIONS. */
export function formatHelp(): string {
  const rows = Object.entries(CLI_OPTIONS).map(([name, option]) => {
    const short = 'short' in option ? `-${option.short}, ` : ''
    const arg = 'arg' in option ? ` ${option.arg}` : ''
    return [`${short}--${name}${arg}`, option.help] as const
  })
  const width = Math.max(...rows.map(([flag]) => flag.length))
  return [
    'Usage: emulator-lite [options]',
    '',
    'A Firebase-compatible backend (Auth, Firestore, Storage, security rules, access log) on SQLite.',
    '',
    'Options:',
    ...rows.map(([flag, help]) => `  ${flag.padEnd(width)}  ${help}`),
    '',
  ].join('\n')
}
