import { join } from 'node:path'
import { REPO_ROOT } from '../env.ts'
import { type RunningService, type Supervision, startService } from '../process.ts'

type NodeServiceOptions = {
  name: string
  /** Entry file relative to the repo root, run through tsx. */
  entry: string
  args?: string[]
  env: NodeJS.ProcessEnv
  healthUrl: string
  readyWhenDegraded?: boolean
  logDir: string
  echo?: boolean
  supervision?: Supervision
}

/** Runs one of our TypeScript services (emulator-lite, api) through tsx from the repo root. */
export function startNodeService(options: NodeServiceOptions): Promise<RunningService> {
  return startService({
    name: options.name,
    command: process.execPath,
    args: ['--import', 'tsx', join(REPO_ROOT, options.entry), ...(options.args ?? [])],
    cwd: REPO_ROOT,
    env: options.env,
    healthUrl: options.healthUrl,
    readyWhenDegraded: options.readyWhenDegraded,
    logFile: join(options.logDir, `${options.name}.log`),
    echo: options.echo,
    ...options.supervision,
  })
}
