// `make check-docker`: everything about the Compose stack that can be checked without a Docker
// engine. Prints one line per check and a summary; exits 1 when any check fails.
//   1. docker-compose.yml, and it merged with docker-compose.lite.yml, interpolated with the
//      defaults, valid against the Compose Specification's JSON schema (infra/docker/schema/).
//   2. The stack's invariants in both variants: healthchecks, dependency conditions, one-shot
//      services adopted (so `up --wait` exits 0), distinct host ports, declared volumes.
//   3. .env.example lists every variable the Compose files read, with the same defaults.
//   4. Each Dockerfile linted (infra/docker/check/dockerfile.ts), for the targets Compose builds.
//   5. Every Node base image (Dockerfiles, Compose defaults, .env.example) is on the pinned major
//      (.node-version, ADR 0016).
//   6. The web image's nginx configuration, rendered by its entrypoint from the Compose environment,
//      is byte-identical to what infra/nginx/render.mjs renders for the same values, and passes
//      `nginx -t` (with the api upstream at 127.0.0.1, as the name `api` resolves only inside the
//      Compose network).
//   7. The pilot's file: valid, one published port (web's), its HTTPS site passes `nginx -t`.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  type ComposeService,
  composeInvariants,
  interpolate,
  mergeCompose,
  parseComposeYaml,
  parseEnvFile,
  referencedVariables,
  schemaErrors,
} from './check/compose.ts'
import { hasHealthcheck, lintDockerfile, parseDockerfile, stagesOf } from './check/dockerfile.ts'
import { dockerignoreMatcher } from './check/dockerignore.ts'
import { nodeImageProblems } from './check/node-version.ts'

export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..')
const NGINX = '/usr/sbin/nginx'

export type CheckResult = { name: string; status: 'ok' | 'failed' | 'not run'; detail: string[] }
/** Records one check: its problems, or why it could not run (`notRun`). */
type Record_ = (name: string, problems: string[], notRun?: string[]) => void

/** Runs every check against a repository checkout. */
export function runChecks(options: { root?: string; nginx?: string } = {}): CheckResult[] {
  const root = options.root ?? REPO_ROOT
  const nginx = options.nginx ?? NGINX
  const results: CheckResult[] = []
  const record: Record_ = (name, problems, notRun) => {
    results.push({ name, status: notRun ? 'not run' : problems.length ? 'failed' : 'ok', detail: notRun ?? problems })
  }
  const read = (path: string) => readFileSync(join(root, path), 'utf8')

  const baseText = read('docker-compose.yml')
  const liteText = read('docker-compose.lite.yml')
  const envExample = parseEnvFile(read('.env.example'))
  const env = { ...envExample.values }
  const base = interpolate(parseComposeYaml(baseText), env)
  const lite = interpolate(parseComposeYaml(liteText), env)
  const variants = { 'docker-compose.yml': base, '+ docker-compose.lite.yml': mergeCompose(base, lite) }

  for (const [label, model] of Object.entries(variants)) {
    record(`schema: ${label} is valid against the Compose Specification`, schemaErrors(model))
  }

  const isIgnored = dockerignoreMatcher(existsSync(join(root, '.dockerignore')) ? read('.dockerignore') : '')
  const dockerfiles = new Map<string, { text: string | null; targets: Set<string> }>()
  const dockerfileOf = (service: ComposeService) => {
    const path = join(service.build?.context ?? '.', service.build?.dockerfile ?? 'Dockerfile')
    let entry = dockerfiles.get(path)
    if (!entry) {
      entry = { text: existsSync(join(root, path)) ? read(path) : null, targets: new Set() }
      dockerfiles.set(path, entry)
    }
    return { path, entry }
  }
  const imageHealthcheck = (service: ComposeService) => {
    const target = service.build?.target
    if (!service.build) return false
    const { entry } = dockerfileOf(service)
    if (entry.text === null) return false
    const stages = stagesOf(parseDockerfile(entry.text))
    const stage = target ? stages.find((s) => s.name === target) : stages.at(-1)
    return stage ? hasHealthcheck(stages, stage) : false
  }
  for (const [label, model] of Object.entries(variants)) {
    record(`invariants: ${label}`, composeInvariants(model, { imageHealthcheck }))
    for (const service of Object.values(model.services ?? {})) {
      if (!service.build) continue
      const { entry } = dockerfileOf(service)
      entry.targets.add(service.build.target ?? '')
    }
  }

  const envProblems: string[] = []
  for (const [file, text] of [
    ['docker-compose.yml', baseText],
    ['docker-compose.lite.yml', liteText],
  ] as const) {
    for (const [name, defaults] of referencedVariables(text)) {
      if (!(name in envExample.values)) {
        envProblems.push(`${file}: \${${name}} is not in .env.example`)
        continue
      }
      for (const fallback of defaults) {
        if (fallback !== envExample.values[name]) {
          envProblems.push(
            `${file}: \${${name}} defaults to "${fallback}", .env.example says "${envExample.values[name]}"`,
          )
        }
      }
    }
  }
  record('.env.example lists every variable with the Compose defaults', envProblems)

  const pinned = read('.node-version').trim()
  const nodeFiles = [
    { file: 'docker-compose.yml', text: baseText },
    { file: 'docker-compose.lite.yml', text: liteText },
    { file: '.env.example', text: read('.env.example') },
    ...[...dockerfiles].flatMap(([path, { text }]) => (text === null ? [] : [{ file: path, text }])),
  ]
  record(
    `node: every Node base image is Node ${pinned.split('.')[0]} (.node-version ${pinned})`,
    nodeImageProblems(nodeFiles, Number(pinned.split('.')[0])),
  )

  for (const [path, { text, targets }] of dockerfiles) {
    if (text === null) {
      record(`lint: ${path}`, [`${path} does not exist`])
      continue
    }
    const named = [...targets].filter(Boolean)
    const problems = lintDockerfile(text, {
      targets: named,
      sourceExists: (source) => existsSync(join(root, source)),
      isIgnored,
    })
    record(`lint: ${path}${named.length ? ` (targets ${named.join(', ')})` : ''}`, problems)
  }

  const web = base.services?.web
  const renderProblems = []
  const work = mkdtempSync(join(tmpdir(), 'bosted-check-'))
  try {
    const webEnv = { ...web?.environment, API_UPSTREAM: '127.0.0.1:3001' }
    const entrypoint = renderWithEntrypoint(root, webEnv, join(work, 'image'))
    const reference = renderWithRenderMjs(root, webEnv, join(work, 'ref'))
    if (entrypoint.error) {
      record('web image: entrypoint renders infra/nginx the way render.mjs does', [], [entrypoint.error])
    } else {
      for (const file of ['app.conf', 'nginx.conf']) {
        const rendered = readFileSync(join(work, 'image', file), 'utf8')
        const expected = readFileSync(join(reference.prefix, file), 'utf8').replaceAll(
          reference.prefix,
          join(work, 'image'),
        )
        if (rendered !== expected) renderProblems.push(`${file} differs from render.mjs's output`)
      }
      try {
        const config = JSON.parse(readFileSync(join(work, 'image/config.json'), 'utf8'))
        if (!config.firebase?.projectId || !('auth' in (config.emulators ?? {}))) {
          renderProblems.push('config.json lacks firebase.projectId or emulators')
        }
      } catch (error) {
        renderProblems.push(`config.json is not JSON: ${error instanceof Error ? error.message : String(error)}`)
      }
      record(
        'web image: entrypoint renders infra/nginx the way render.mjs does, and a valid /config.json',
        renderProblems,
      )
      if (!existsSync(nginx)) {
        record('web image: nginx -t on its configuration', [], [`${nginx} is not installed (apt-get install nginx)`])
      } else {
        const test = spawnSync(nginx, ['-t', '-p', join(work, 'image'), '-c', join(work, 'image/nginx.conf')], {
          encoding: 'utf8',
        })
        record('web image: nginx -t on its configuration', test.status === 0 ? [] : [test.stderr.trim()])
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
  if (existsSync(join(root, 'docker-compose.pilot.yml'))) checkPilot(root, env, nginx, record)
  return results
}

/**
 * 7. The pilot's own file (docker-compose.pilot.yml, docs/pilot.md): valid against the schema; one
 * published port, web's, and no other service with one; its nginx site (NGINX_SITE=pilot), rendered
 * by the entrypoint with a throwaway certificate from infra/docker/pilot/tls.ts, passes `nginx -t`.
 */
function checkPilot(root: string, env: Record<string, string>, nginx: string, record: Record_): void {
  const pilot = interpolate(parseComposeYaml(readFileSync(join(root, 'docker-compose.pilot.yml'), 'utf8')), env)
  record('schema: docker-compose.pilot.yml is valid against the Compose Specification', schemaErrors(pilot))
  const publishing = Object.entries(pilot.services ?? {}).filter(([, service]) => (service.ports ?? []).length > 0)
  const onePort =
    publishing.length === 1 && publishing[0]?.[0] === 'web' && (publishing[0]?.[1].ports ?? []).length === 1
  record(
    'pilot: exactly one published port (web), none for the backend, the api or the tools',
    onePort
      ? []
      : [`published: ${publishing.map(([name, service]) => `${name} ${(service.ports ?? []).join(',')}`).join('; ')}`],
  )
  const work = mkdtempSync(join(tmpdir(), 'bosted-check-pilot-'))
  try {
    const tls = spawnSync(process.execPath, [join(root, 'infra/docker/pilot/tls.ts')], {
      encoding: 'utf8',
      env: { TLS_DIR: work, TLS_INPUT_DIR: join(work, 'none'), TLS_KEY_OWNER: '', PILOT_HOST: 'pilot.example' },
    })
    const webEnv = {
      ...pilot.services?.web?.environment,
      API_UPSTREAM: '127.0.0.1:3001',
      AUTH_UPSTREAM: '127.0.0.1:9099',
      FIRESTORE_UPSTREAM: '127.0.0.1:8080',
      STORAGE_UPSTREAM: '127.0.0.1:9199',
      TLS_CERT: join(work, 'cert.pem'),
      TLS_KEY: join(work, 'key.pem'),
    }
    const rendered = tls.status === 0 ? renderWithEntrypoint(root, webEnv, join(work, 'image')) : { error: tls.stderr }
    if (rendered.error) record('pilot: nginx -t on its HTTPS site', [], [rendered.error])
    else if (!existsSync(nginx)) record('pilot: nginx -t on its HTTPS site', [], [`${nginx} is not installed`])
    else {
      const test = spawnSync(nginx, ['-t', '-p', join(work, 'image'), '-c', join(work, 'image/nginx.conf')], {
        encoding: 'utf8',
      })
      record('pilot: nginx -t on its HTTPS site', test.status === 0 ? [] : [test.stderr.trim()])
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

function renderWithEntrypoint(
  root: string,
  env: Record<string, string | undefined>,
  prefix: string,
): { error?: string } {
  const hasEnvsubst = spawnSync('sh', ['-c', 'command -v envsubst'], { encoding: 'utf8' }).status === 0
  if (!hasEnvsubst) return { error: 'envsubst is not installed (gettext-base), so the entrypoint cannot run here' }
  const run = spawnSync('sh', [join(root, 'infra/docker/web/entrypoint.sh'), '--render-only'], {
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      ...env,
      NGINX_PREFIX: prefix,
      NGINX_TEMPLATES: join(root, 'infra/nginx'),
      WEB_ROOT: '/srv/www',
    },
  })
  if (run.status !== 0) return { error: `entrypoint failed: ${run.stderr.trim()}` }
  return {}
}

/** The browser's allowed origins, by the native stack's rule (connectSources() in infra/stack). */
export function connectSources(env: Record<string, string | undefined>): string[] {
  const origins = [env.WEB_AUTH_EMULATOR, env.WEB_FIRESTORE_EMULATOR, env.WEB_STORAGE_EMULATOR]
    .filter((value): value is string => Boolean(value))
    .map((value) => (value.startsWith('http') ? value : `http://${value}`))
  return origins.length > 0
    ? origins
    : ['https://*.googleapis.com', 'https://*.firebaseio.com', 'https://firebasestorage.googleapis.com']
}

function renderWithRenderMjs(
  root: string,
  env: Record<string, string | undefined>,
  prefix: string,
): { prefix: string } {
  const run = spawnSync(
    process.execPath,
    [
      join(root, 'infra/nginx/render.mjs'),
      '--prefix',
      prefix,
      '--app-port',
      env.NGINX_LISTEN_PORT ?? '8000',
      '--api-upstream',
      env.API_UPSTREAM ?? '',
      '--web-root',
      '/srv/www',
      '--csp-connect-src',
      connectSources(env).join(' '),
    ],
    { encoding: 'utf8' },
  )
  if (run.status !== 0) throw new Error(`render.mjs failed: ${run.stderr}`)
  return { prefix }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const results = runChecks()
  for (const { name, status, detail } of results) {
    console.log(`${status === 'ok' ? 'ok     ' : status === 'failed' ? 'FAILED ' : 'NOT RUN'} ${name}`)
    for (const line of detail) console.log(`          ${line.replaceAll('\n', '\n          ')}`)
  }
  const count = (status: CheckResult['status']) => results.filter((result) => result.status === status).length
  console.log(`\ncheck-docker: ${count('ok')} passed, ${count('failed')} failed, ${count('not run')} not run`)
  console.log('(static checks only: nothing here builds an image or starts a container)')
  process.exitCode = count('failed') > 0 ? 1 : 0
}
