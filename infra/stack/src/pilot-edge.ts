import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { get } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from './ports.ts'

export const NGINX = '/usr/sbin/nginx'
const REPO_ROOT = join(import.meta.dirname, '../../..')

/** Whether this machine can run the pilot's edge: nginx and openssl. */
export const canRunPilotEdge = () => existsSync(NGINX) && spawnSync('openssl', ['version']).status === 0

export type PilotEdge = { port: number; origin: string; stop: () => Promise<void> }

/**
 * The pilot's one origin as it ships (infra/nginx/pilot.conf.template, rendered by the web image's
 * entrypoint as in the pilot) on a free loopback port, with a throwaway self-signed certificate, in
 * front of the given upstreams (`host:port`) and serving `webRoot`. `http2: false` takes `http2` off
 * its `listen` (to compare the protocols); the shipped template must have it.
 */
export async function startPilotEdge(options: {
  webRoot?: string
  upstreams: { api: string; auth: string; firestore: string; storage: string }
  http2?: boolean
}): Promise<PilotEdge> {
  const prefix = mkdtempSync(join(tmpdir(), 'bosted-pilot-edge-'))
  const port = await freePort()
  const [cert, key] = [join(prefix, 'cert.pem'), join(prefix, 'key.pem')]
  const tls = spawnSync('openssl', [
    ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'],
    ...['-subj', '/CN=127.0.0.1', '-keyout', key, '-out', cert],
  ])
  if (tls.status !== 0) throw new Error(tls.stderr.toString())
  const render = spawnSync('sh', [join(REPO_ROOT, 'infra/docker/web/entrypoint.sh'), '--render-only'], {
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      NGINX_TEMPLATES: join(REPO_ROOT, 'infra/nginx'),
      NGINX_PREFIX: prefix,
      WEB_ROOT: options.webRoot ?? prefix,
      NGINX_SITE: 'pilot',
      NGINX_LISTEN_PORT: String(port),
      PILOT_HOST: '127.0.0.1',
      PILOT_PORT: String(port),
      API_UPSTREAM: options.upstreams.api,
      AUTH_UPSTREAM: options.upstreams.auth,
      FIRESTORE_UPSTREAM: options.upstreams.firestore,
      STORAGE_UPSTREAM: options.upstreams.storage,
      TLS_CERT: cert,
      TLS_KEY: key,
    },
  })
  if (render.status !== 0) throw new Error(render.stderr)
  // Loopback only here (in the image nginx listens on every address of its container).
  const conf = join(prefix, 'app.conf')
  const shipped = readFileSync(conf, 'utf8')
  const listen = `listen ${port} ssl http2;`
  if (!shipped.includes(listen)) throw new Error(`the pilot template no longer has \`${listen}\``)
  writeFileSync(
    conf,
    shipped.replace(listen, `listen 127.0.0.1:${port} ssl${options.http2 === false ? '' : ' http2'};`),
  )
  const check = spawnSync(NGINX, ['-t', '-p', prefix, '-c', join(prefix, 'nginx.conf')], { encoding: 'utf8' })
  if (check.status !== 0) throw new Error(check.stderr)
  const nginx: ChildProcess = spawn(NGINX, ['-p', prefix, '-c', join(prefix, 'nginx.conf')], { stdio: 'ignore' })
  const stop = async () => {
    nginx.kill('SIGTERM')
    if (nginx.exitCode === null) await new Promise((resolve) => nginx.once('exit', resolve))
    rmSync(prefix, { recursive: true, force: true })
  }
  const origin = `https://127.0.0.1:${port}`
  for (let tries = 0; ; tries += 1) {
    const answers = await new Promise<boolean>((resolve) =>
      get(`${origin}/config.json`, { rejectUnauthorized: false }, (answer) => {
        answer.resume()
        resolve(true)
      }).on('error', () => resolve(false)),
    )
    if (answers) return { port, origin, stop }
    if (tries >= 100) {
      await stop()
      throw new Error('nginx did not answer within 5 s')
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
