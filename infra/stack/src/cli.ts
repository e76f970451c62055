// `make start` / `make dev`: the whole native stack in one command; Ctrl-C stops every child.
import './node-version-check.ts'
import { spawn } from 'node:child_process'
import { REPO_ROOT, readStackEnv } from './env.ts'
import { PortInUseError } from './ports.ts'
import { StackAlreadyRunningError } from './run-file.ts'
import { DEMO_ACCOUNTS, startStack, webConfigFor } from './stack.ts'

const mode = process.argv.includes('--dev') ? 'dev' : 'start'
/** `--no-build` serves the existing web/dist (it is still built when missing). */
const build = mode === 'start' && !process.argv.includes('--no-build')

// The launcher's own output may go to a file on a full disk or a closed pipe: a failed write of a
// status line must never stop the stack it supervises (Console ignores the errors it sees; these
// are the asynchronous ones a stream emits).
process.stdout.on('error', () => {})
process.stderr.on('error', () => {})

async function main(): Promise<void> {
  const env = readStackEnv()
  const stack = await startStack({
    env,
    persist: true,
    build,
    serveWeb: mode === 'start',
    seed: true,
  })
  const children = [...stack.services]
  let vite: ReturnType<typeof spawn> | null = null
  if (mode === 'dev') {
    vite = spawn('npm', ['run', '-w', 'web', 'dev', '--', '--port', String(env.APP_PORT), '--strictPort'], {
      cwd: REPO_ROOT,
      env: { ...process.env, API_PORT: String(env.API_PORT), WEB_RUNTIME_CONFIG: JSON.stringify(webConfigFor(env)) },
      stdio: 'inherit',
      detached: true,
    })
  }
  // Signal handlers first: whoever reads "ready" may press Ctrl-C at once.
  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    console.log(`\n${signal}: stopping ${children.length + (vite ? 1 : 0)} services …`)
    if (vite?.pid) {
      try {
        process.kill(-vite.pid, 'SIGTERM')
      } catch {}
    }
    await stack.stop()
    console.log('stopped')
    process.exit(0)
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  const app = mode === 'dev' ? `http://${env.STACK_HOST}:${env.APP_PORT} (Vite, HMR)` : stack.urls.app
  console.log('\nBosted is ready')
  console.log(`  app        ${app ?? '(web not built yet)'}${stack.webServerKind ? ` via ${stack.webServerKind}` : ''}`)
  console.log(`  api        ${stack.urls.api ?? '(not present)'}`)
  console.log(`  auth       ${stack.urls.auth}`)
  console.log(`  firestore  ${stack.urls.firestore ?? '(not present)'}`)
  console.log(`  storage    ${stack.urls.storage ?? '(not present)'}`)
  if (stack.urls.admin) console.log(`  admin      ${stack.urls.admin} (api, seed and tools only; never for browsers)`)
  console.log('Demo accounts:')
  for (const account of DEMO_ACCOUNTS) console.log(`  ${account.email.padEnd(22)} ${account.password}  ${account.role}`)
  console.log('Press Ctrl-C to stop.')
  // A service that crashes is restarted by its supervisor (process.ts), which says so on stderr.
}

main().catch((error: unknown) => {
  if (error instanceof PortInUseError || error instanceof StackAlreadyRunningError) console.error(error.message)
  else console.error(`make ${mode} failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
