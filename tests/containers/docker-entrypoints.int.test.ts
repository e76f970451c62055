import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer as createHttpServer, type Server } from 'node:http'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { firebaseArgs, firebaseConfig, readOptions } from '@bosted/docker/emulators/start'
import { Ajv } from 'ajv'
import { afterAll, afterEach, expect, test } from 'vitest'

// The containers' entrypoints run here as host processes: the web image's (rendering infra/nginx and
// /config.json, then serving through Debian's nginx) and the emulators image's in its lite mode
// (emulator-lite with its Auth). What only a Docker engine can run is in compose.test.ts.
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url))
const NGINX = '/usr/sbin/nginx'
const work = mkdtempSync(join(tmpdir(), 'bosted-entrypoints-'))
const running: ChildProcess[] = []

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      )
    })
  })
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check()) return
    await sleep(250)
  }
  throw new Error(`${what} within ${timeoutMs} ms`)
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode)
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)))
}

function webEntrypoint(env: Record<string, string>, args: string[] = []) {
  return spawnSync('sh', [join(REPO_ROOT, 'infra/docker/web/entrypoint.sh'), ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, NGINX_TEMPLATES: join(REPO_ROOT, 'infra/nginx'), ...env },
  })
}

// SIGTERM first: nginx's workers and the emulators' children stop with their parent only then.
afterEach(async () => {
  for (const child of running.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue
    child.kill('SIGTERM')
    const stopped = await Promise.race([exited(child).then(() => true), sleep(15_000).then(() => false)])
    if (!stopped) child.kill('SIGKILL')
  }
})
afterAll(() => rmSync(work, { recursive: true, force: true }))

test('the web entrypoint writes /config.json from the environment, escaping what JSON needs', () => {
  const prefix = join(work, 'render-emulators')
  const run = webEntrypoint(
    {
      NGINX_PREFIX: prefix,
      FIREBASE_PROJECT_ID: 'demo-x',
      FIREBASE_API_KEY: 'key"with\\quote',
      WEB_AUTH_EMULATOR: 'http://pilot.example:9099',
      WEB_FIRESTORE_EMULATOR: 'pilot.example:8080',
      WEB_STORAGE_EMULATOR: 'pilot.example:9199',
    },
    ['--render-only'],
  )
  expect(run.stderr).toBe('')
  expect(run.status).toBe(0)
  expect(JSON.parse(readFileSync(join(prefix, 'config.json'), 'utf8'))).toEqual({
    firebase: {
      apiKey: 'key"with\\quote',
      authDomain: 'demo-x.firebaseapp.com',
      projectId: 'demo-x',
      appId: 'demo-app',
      storageBucket: 'demo-x.appspot.com',
    },
    emulators: { auth: 'http://pilot.example:9099', firestore: 'pilot.example:8080', storage: 'pilot.example:9199' },
  })
  expect(readFileSync(join(prefix, 'app.conf'), 'utf8')).toContain(
    "connect-src 'self' http://pilot.example:9099 http://pilot.example:8080 http://pilot.example:9199;",
  )
})

test('without emulators the web entrypoint configures production: no emulator hosts, Firebase origins in the CSP', () => {
  const prefix = join(work, 'render-production')
  const run = webEntrypoint({ NGINX_PREFIX: prefix, FIREBASE_PROJECT_ID: 'bosted-prod' }, ['--render-only'])
  expect(run.status).toBe(0)
  const config = JSON.parse(readFileSync(join(prefix, 'config.json'), 'utf8'))
  expect(config.emulators).toEqual({ auth: null, firestore: null, storage: null })
  expect(readFileSync(join(prefix, 'app.conf'), 'utf8')).toContain(
    "connect-src 'self' https://*.googleapis.com https://*.firebaseio.com https://firebasestorage.googleapis.com;",
  )
})

test('the web entrypoint refuses values that could break out of JSON or nginx syntax', () => {
  const newline = webEntrypoint({ NGINX_PREFIX: join(work, 'refuse-1'), FIREBASE_APP_ID: 'a\nb' }, ['--render-only'])
  expect(newline.status).toBe(1)
  expect(newline.stderr).toContain('refusing a configuration value with control characters')
  const directive = webEntrypoint({ NGINX_PREFIX: join(work, 'refuse-2'), WEB_STORAGE_EMULATOR: 'x; return 200' }, [
    '--render-only',
  ])
  expect(directive.status).toBe(1)
  expect(directive.stderr).toContain("refusing a value with quotes, ';', braces, spaces or backslashes")
})

test('the web entrypoint serves the bundle through nginx: /config.json, SPA fallback, /api proxy and headers', async () => {
  if (!existsSync(NGINX)) throw new Error(`${NGINX} is required for this test (apt-get install nginx)`)
  const api: Server = createHttpServer((request, response) => {
    response.setHeader('content-type', 'application/json')
    response.end(JSON.stringify({ path: request.url, forwardedFor: request.headers['x-forwarded-for'] ?? null }))
  })
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve))
  const apiPort = (api.address() as { port: number }).port
  try {
    const prefix = join(work, 'serve')
    const webRoot = join(work, 'www')
    mkdirSync(join(webRoot, 'assets'), { recursive: true })
    writeFileSync(join(webRoot, 'index.html'), '<!doctype html><div id="root"></div>')
    writeFileSync(join(webRoot, 'assets/app-1a2b3c.js'), `console.log(${JSON.stringify('x'.repeat(2000))})`)
    // As in the image: the read-only web root links /config.json to the rendered one.
    symlinkSync(join(prefix, 'config.json'), join(webRoot, 'config.json'))
    const port = await freePort()
    const child = spawn('sh', [join(REPO_ROOT, 'infra/docker/web/entrypoint.sh')], {
      env: {
        PATH: process.env.PATH,
        NGINX_TEMPLATES: join(REPO_ROOT, 'infra/nginx'),
        NGINX_PREFIX: prefix,
        WEB_ROOT: webRoot,
        NGINX_LISTEN_PORT: String(port),
        API_UPSTREAM: `127.0.0.1:${apiPort}`,
        WEB_AUTH_EMULATOR: 'http://localhost:9099',
      },
      stdio: 'ignore',
    })
    running.push(child)
    const base = `http://127.0.0.1:${port}`
    await waitFor(
      async () => (await fetch(`${base}/config.json`).catch(() => null))?.ok === true,
      'nginx did not serve',
    )

    const config = await fetch(`${base}/config.json`)
    expect(config.headers.get('cache-control')).toBe('no-cache')
    expect((await config.json()).emulators.auth).toBe('http://localhost:9099')

    const deepLink = await fetch(`${base}/person/abc/daily`)
    expect(deepLink.status).toBe(200)
    expect(await deepLink.text()).toContain('<div id="root">')
    expect(deepLink.headers.get('server')).toBe('nginx')
    expect(deepLink.headers.get('cache-control')).toBe('no-cache')
    expect(deepLink.headers.get('x-content-type-options')).toBe('nosniff')
    expect(deepLink.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    expect(deepLink.headers.get('content-security-policy')).toContain(
      "connect-src 'self' http://localhost:9099; frame-ancestors 'none'",
    )

    const asset = await fetch(`${base}/assets/app-1a2b3c.js`, { headers: { 'accept-encoding': 'gzip' } })
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(asset.headers.get('content-encoding')).toBe('gzip')

    const proxied = await fetch(`${base}/api/health?x=1`)
    expect(await proxied.json()).toEqual({ path: '/api/health?x=1', forwardedFor: '127.0.0.1' })
  } finally {
    await new Promise((resolve) => api.close(resolve))
  }
})

test('the official emulators bind every interface, enable the UI and import only a complete export', () => {
  const options = readOptions({ DATA_DIR: '/data', FIRESTORE_PORT: '18080' }, 'official')
  const config = firebaseConfig(options)
  expect(config.emulators.auth).toEqual({ host: '0.0.0.0', port: 9099 })
  expect(config.emulators.firestore).toEqual({ host: '0.0.0.0', port: 18080, websocketPort: 9150 })
  expect(config.emulators.ui).toEqual({ enabled: true, host: '0.0.0.0', port: 4000 })
  for (const rules of [config.firestore?.rules, config.storage?.rules]) expect(existsSync(rules ?? '')).toBe(true)
  expect(firebaseArgs(options, false)).toEqual([
    'emulators:start',
    '--only',
    'auth,firestore,storage',
    '--project',
    'demo-bosted',
    '--config',
    '/tmp/bosted-emulators/firebase.json',
    '--export-on-exit',
    '/data/export',
  ])
  expect(firebaseArgs(options, true)).toContain('--import')
  expect(() => readOptions({ AUTH_PORT: 'http' }, 'official')).toThrow('AUTH_PORT must be a port')
})

test("the emulators' firebase.json is valid against firebase-tools' own schema, in both modes", () => {
  const schema = JSON.parse(
    readFileSync(join(REPO_ROOT, 'node_modules/firebase-tools/schema/firebase-config.json'), 'utf8'),
  )
  delete schema.$schema
  const validate = new Ajv({ allErrors: true, strict: false, validateFormats: false }).compile(schema)
  for (const mode of ['official', 'lite'] as const) {
    expect(validate(firebaseConfig(readOptions({}, mode))), JSON.stringify(validate.errors)).toBe(true)
  }
  expect(validate({ emulators: { auth: { hots: '0.0.0.0' } } })).toBe(false)
})

test('the lite emulators keep users and documents in the named volume, even across kill -9', async () => {
  const ports = {
    AUTH_PORT: await freePort(),
    FIRESTORE_PORT: await freePort(),
    STORAGE_PORT: await freePort(),
    EMULATOR_ADMIN_PORT: await freePort(),
    EMULATOR_HUB_PORT: await freePort(),
    EMULATOR_LOGGING_PORT: await freePort(),
  }
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? work,
    // firebase-tools finds its hub through a file in the temporary directory, named after the
    // project; a private one keeps other emulators on this machine out of the export (a container
    // has its own /tmp).
    TMPDIR: join(work, 'tmp'),
    FIREBASE_PROJECT_ID: 'demo-docker-lite',
    EMULATORS_HOST: '127.0.0.1',
    DATA_DIR: join(work, 'volume'),
    EMULATORS_WORK_DIR: join(work, 'emulators-work'),
    ...Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)])),
  }
  const healthUrls = [
    `http://127.0.0.1:${ports.AUTH_PORT}/`,
    `http://127.0.0.1:${ports.FIRESTORE_PORT}/health`,
    `http://127.0.0.1:${ports.STORAGE_PORT}/health`,
    `http://127.0.0.1:${ports.EMULATOR_ADMIN_PORT}/health`,
  ]
  const healthy = () =>
    spawnSync(process.execPath, [join(REPO_ROOT, 'infra/docker/healthcheck.ts'), ...healthUrls]).status === 0
  const start = async () => {
    // Its own process group, as a container is: kill -9 below takes the whole tree down at once.
    const child = spawn(process.execPath, [join(REPO_ROOT, 'infra/docker/emulators/start.ts'), '--mode', 'lite'], {
      env,
      stdio: 'ignore',
      detached: true,
    })
    running.push(child)
    await waitFor(async () => healthy(), 'the lite emulators were not healthy')
    return child
  }
  const auth = `http://127.0.0.1:${ports.AUTH_PORT}/identitytoolkit.googleapis.com/v1`
  // The owner credential is believed only on the admin listener (the api's and the seed's).
  const database = `http://127.0.0.1:${ports.EMULATOR_ADMIN_PORT}/v1/projects/demo-docker-lite/databases/(default)`
  const documentName = 'projects/demo-docker-lite/databases/(default)/documents/pilots/one'
  const owner = { authorization: 'Bearer owner', 'content-type': 'application/json' }
  const credentials = { email: 'pilot@demo.dk', password: 'demo1234', returnSecureToken: true }

  mkdirSync(join(work, 'tmp'), { recursive: true })
  expect(healthy()).toBe(false)
  const first = await start()
  const json = { 'content-type': 'application/json' }
  const signUp = await fetch(`${auth}/accounts:signUp?key=demo`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify(credentials),
  })
  expect(signUp.status).toBe(200)
  const write = await fetch(`${database}/documents:commit`, {
    method: 'POST',
    headers: owner,
    body: JSON.stringify({
      writes: [{ update: { name: documentName, fields: { name: { stringValue: 'Solsikken' } } } }],
    }),
  })
  expect(write.status).toBe(200)
  // Not even a clean stop is needed: Auth, documents and objects are in SQLite in the volume.
  process.kill(-(first.pid as number), 'SIGKILL')
  await exited(first)
  expect(existsSync(join(work, 'volume/emulator-lite/emulator-lite.sqlite'))).toBe(true)

  const second = await start()
  const signIn = await fetch(`${auth}/accounts:signInWithPassword?key=demo`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify(credentials),
  })
  expect(signIn.status).toBe(200)
  const read = await fetch(`${database}/documents:batchGet`, {
    method: 'POST',
    headers: owner,
    body: JSON.stringify({ documents: [documentName] }),
  })
  const [result] = await read.json()
  expect(result.found.fields.name.stringValue).toBe('Solsikken')
  second.kill('SIGTERM')
  expect(await exited(second)).toBe(0)
}, 240_000)

test('the healthcheck fails on a 5xx answer and on a closed port, and passes on any other answer', async () => {
  const server = createHttpServer((request, response) => {
    response.statusCode = request.url === '/down' ? 503 : request.url === '/missing' ? 404 : 200
    response.end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  const check = (...urls: string[]) =>
    new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [join(REPO_ROOT, 'infra/docker/healthcheck.ts'), ...urls], {
        stdio: 'ignore',
      })
      child.once('exit', (code) => resolve(code))
    })
  try {
    expect(await check(`${base}/ok`, `${base}/missing`)).toBe(0)
    expect(await check(`${base}/ok`, `${base}/down`)).toBe(1)
    expect(await check(`http://127.0.0.1:${await freePort()}/`)).toBe(1)
  } finally {
    await new Promise((resolve) => server.close(resolve))
  }
})
