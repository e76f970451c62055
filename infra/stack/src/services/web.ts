import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { REPO_ROOT } from '../env.ts'
import { type RunningService, type Supervision, startService } from '../process.ts'

export type WebConfig = {
  firebase: { apiKey: string; authDomain: string; projectId: string; appId: string; storageBucket: string }
  emulators: { auth: string | null; firestore: string | null; storage: string | null }
}

export type WebServerOptions = {
  host: string
  port: number
  api: { host: string; port: number }
  runDir: string
  config: WebConfig
  server: 'auto' | 'nginx' | 'node'
  echo?: boolean
  supervision?: Supervision
}

const NGINX_BINARY = '/usr/sbin/nginx'
const NGINX_RENDERER = join(REPO_ROOT, 'infra/nginx/render.mjs')
export const WEB_DIST = join(REPO_ROOT, 'web/dist')

export function hasNginx(): boolean {
  return existsSync(NGINX_BINARY) && existsSync(NGINX_RENDERER)
}

/** Origins the browser may connect to: the emulators (or Firebase's hosts in production). */
export function connectSources(config: WebConfig): string[] {
  const emulatorOrigins = [config.emulators.auth, config.emulators.firestore, config.emulators.storage]
    .filter((value): value is string => value !== null)
    .map((value) => (value.startsWith('http') ? value : `http://${value}`))
  return emulatorOrigins.length > 0
    ? emulatorOrigins
    : ['https://*.googleapis.com', 'https://*.firebaseio.com', 'https://firebasestorage.googleapis.com']
}

/**
 * Serves a private copy of web/dist plus its /config.json (so stacks on other ports, such as the
 * end-to-end suite's, never overwrite each other's configuration) through nginx when installed,
 * otherwise through the Node fallback with the same routes.
 */
export async function startWebServer(options: WebServerOptions): Promise<RunningService & { kind: string }> {
  const webRoot = join(options.runDir, 'www')
  rmSync(webRoot, { recursive: true, force: true })
  mkdirSync(webRoot, { recursive: true })
  cpSync(WEB_DIST, webRoot, { recursive: true })
  writeFileSync(join(webRoot, 'config.json'), `${JSON.stringify(options.config, null, 2)}\n`)
  const useNginx = options.server === 'nginx' || (options.server === 'auto' && hasNginx())
  const healthUrl = `http://${options.host}:${options.port}/config.json`
  const logFile = join(options.runDir, 'web.log')
  if (useNginx) {
    const { renderNginxConfig } = (await import(pathToFileURL(NGINX_RENDERER).href)) as {
      renderNginxConfig(input: Record<string, unknown>): { nginxConfPath: string }
    }
    const prefix = join(options.runDir, 'nginx')
    mkdirSync(prefix, { recursive: true })
    const { nginxConfPath } = renderNginxConfig({
      appPort: options.port,
      // Natively nginx binds STACK_HOST like every other service (127.0.0.1 by default), not 0.0.0.0.
      listenHost: options.host,
      apiUpstream: `${options.api.host}:${options.api.port}`,
      webRoot,
      cspConnectSrc: connectSources(options.config).join(' '),
      prefix,
    })
    const check = spawnSync(NGINX_BINARY, ['-t', '-p', prefix, '-c', nginxConfPath], { encoding: 'utf8' })
    if (check.status !== 0) throw new Error(`nginx rejected its configuration:\n${check.stderr}`)
    const service = await startService({
      name: 'web',
      command: NGINX_BINARY,
      args: ['-p', prefix, '-c', nginxConfPath],
      cwd: prefix,
      healthUrl,
      logFile,
      echo: options.echo,
      ...options.supervision,
    })
    // Not a spread: `child` is a getter that follows restarts.
    return Object.assign(service, { kind: 'nginx' })
  }
  const service = await startService({
    name: 'web',
    command: process.execPath,
    args: [
      '--import',
      'tsx',
      join(REPO_ROOT, 'infra/stack/src/static-server-cli.ts'),
      JSON.stringify({
        host: options.host,
        port: options.port,
        webRoot,
        apiUpstream: options.api,
        headers: securityHeaders(connectSources(options.config)),
      }),
    ],
    cwd: REPO_ROOT,
    healthUrl,
    logFile,
    echo: options.echo,
    ...options.supervision,
  })
  return Object.assign(service, { kind: 'node' })
}

function securityHeaders(connectSrc: string[]): Record<string, string> {
  const sources = connectSrc.join(' ')
  return {
    'content-security-policy': `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: ${sources}; connect-src 'self' ${sources}; frame-ancestors 'none'; base-uri 'self'; form-action 'self'`,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
  }
}
