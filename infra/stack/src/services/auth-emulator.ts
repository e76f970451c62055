import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { REPO_ROOT } from '../env.ts'
import { type RunningService, type Supervision, startService } from '../process.ts'

export type AuthEmulatorOptions = {
  host: string
  port: number
  hubPort: number
  loggingPort: number
  projectId: string
  /** Working directory for its config and logs; with `persist`, also its data. */
  workDir: string
  persist: boolean
  echo?: boolean
  supervision?: Supervision
}

/**
 * The official Auth emulator from firebase-tools (pure Node, works offline). Its hub and logging
 * ports are set explicitly so a running stack and a test run do not fight over 4400/4500.
 */
export function startAuthEmulator(options: AuthEmulatorOptions): Promise<RunningService> {
  mkdirSync(options.workDir, { recursive: true })
  const configPath = join(options.workDir, 'firebase.json')
  writeFileSync(
    configPath,
    JSON.stringify({
      emulators: {
        auth: { host: options.host, port: options.port },
        hub: { host: options.host, port: options.hubPort },
        logging: { host: options.host, port: options.loggingPort },
        ui: { enabled: false },
      },
    }),
  )
  const dataDir = join(options.workDir, 'data')
  const args = ['emulators:start', '--only', 'auth', '--project', options.projectId, '--config', configPath]
  if (options.persist) {
    if (existsSync(join(dataDir, 'firebase-export-metadata.json'))) args.push('--import', dataDir)
    args.push('--export-on-exit', dataDir)
  }
  return startService({
    name: 'auth',
    command: join(REPO_ROOT, 'node_modules/.bin/firebase'),
    args,
    cwd: options.workDir,
    healthUrl: `http://${options.host}:${options.port}/`,
    logFile: join(options.workDir, 'auth-emulator.log'),
    echo: options.echo,
    readyTimeoutMs: 90_000,
    ...options.supervision,
  })
}
