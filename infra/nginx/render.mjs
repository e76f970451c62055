// Renders infra/nginx's templates into a prefix directory. Imported by the native launcher
// (infra/stack) and run as a CLI by the web image's entrypoint:
//   node render.mjs --prefix DIR --app-port 8000 --api-upstream api:3001 --web-root DIR --csp-connect-src "…"
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { userInfo } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const here = dirname(fileURLToPath(import.meta.url))

function fill(template, values) {
  return template.replace(/\$\{([A-Z_]+)\}/g, (match, name) => (name in values ? String(values[name]) : match))
}

/**
 * `listenHost` binds one address (the native stack passes STACK_HOST); without it nginx listens on
 * every address, as in the web container, where only the published port is reachable.
 * @param {{ appPort: number, listenHost?: string, apiUpstream: string, webRoot: string, cspConnectSrc: string, prefix: string }} options
 * @returns {{ nginxConfPath: string }}
 */
export function renderNginxConfig({ appPort, listenHost, apiUpstream, webRoot, cspConnectSrc, prefix }) {
  mkdirSync(prefix, { recursive: true })
  // As root, workers would drop to `nobody`, who cannot read a private web root; keep our user.
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  const values = {
    APP_PORT: appPort,
    LISTEN: listenHost ? `${listenHost.includes(':') ? `[${listenHost}]` : listenHost}:${appPort}` : String(appPort),
    API_UPSTREAM: apiUpstream,
    WEB_ROOT: webRoot,
    CSP_CONNECT_SRC: cspConnectSrc,
    PREFIX: prefix,
    USER_DIRECTIVE: isRoot ? `user ${userInfo().username};` : '',
  }
  writeFileSync(join(prefix, 'app.conf'), fill(readFileSync(join(here, 'app.conf.template'), 'utf8'), values))
  const nginxConfPath = join(prefix, 'nginx.conf')
  writeFileSync(nginxConfPath, fill(readFileSync(join(here, 'nginx.conf.template'), 'utf8'), values))
  return { nginxConfPath }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values: args } = parseArgs({
    options: Object.fromEntries(
      ['prefix', 'app-port', 'listen-host', 'api-upstream', 'web-root', 'csp-connect-src'].map((name) => [
        name,
        { type: 'string' },
      ]),
    ),
  })
  const { nginxConfPath } = renderNginxConfig({
    appPort: Number(args['app-port'] ?? 8000),
    listenHost: args['listen-host'],
    apiUpstream: args['api-upstream'] ?? 'api:3001',
    webRoot: args['web-root'] ?? '/usr/share/nginx/html',
    cspConnectSrc: args['csp-connect-src'] ?? '',
    prefix: args.prefix ?? '/tmp/nginx',
  })
  console.log(nginxConfPath)
}
