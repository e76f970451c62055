import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import {
  composeInvariants,
  interpolate,
  mergeCompose,
  parseComposeYaml,
  schemaErrors,
} from '@bosted/docker/check/compose'
import { lintDockerfile } from '@bosted/docker/check/dockerfile'
import { dockerignoreMatcher } from '@bosted/docker/check/dockerignore'
import { nodeImageProblems } from '@bosted/docker/check/node-version'
import { expect, test } from 'vitest'

// `make check-docker` and the rules behind it. Each rule is shown to fail on a file that breaks it,
// so a check that silently stopped checking would fail here.
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url))
const read = (path: string) => readFileSync(`${REPO_ROOT}/${path}`, 'utf8')
const noImageHealthcheck = { imageHealthcheck: () => false }
const withEverything = { sourceExists: () => true, isIgnored: () => false }

const GOOD_DOCKERFILE = `
FROM node:24-bookworm AS deps
RUN npm ci --omit=dev
FROM node:24-bookworm-slim AS app
COPY --from=deps /app /app
USER node
HEALTHCHECK CMD ["node", "health.mjs"]
CMD ["node", "index.mjs"]
`

test('make check-docker passes on the repository, every check run', () => {
  const run = spawnSync(process.execPath, [`${REPO_ROOT}/infra/docker/check.ts`], { encoding: 'utf8' })
  expect(run.stdout).toMatch(/check-docker: \d+ passed, 0 failed, 0 not run/)
  expect(run.stdout).toContain('ok      web image: nginx -t on its configuration')
  expect(run.status).toBe(0)
})

test('the schema rejects a misspelt healthcheck key and a wrong depends_on condition', () => {
  const valid = { services: { api: { image: 'a:1', healthcheck: { test: ['CMD', 'true'] } } } }
  expect(schemaErrors(valid)).toEqual([])
  const misspelt = { services: { api: { image: 'a:1', healthcheck: { tset: ['CMD', 'true'] } } } }
  expect(schemaErrors(misspelt).join('\n')).toContain('must NOT have additional properties')
  const wrongCondition = { services: { a: { image: 'a:1', depends_on: { b: { condition: 'service_ready' } } } } }
  expect(schemaErrors(wrongCondition).length).toBeGreaterThan(0)
})

test('interpolation applies defaults, set values and $$ escapes as Compose does', () => {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: Compose's syntax, not a template literal
  const model = parseComposeYaml('x: "${A:-1} ${B-2} ${C:-3} $${D} ${E}"')
  // biome-ignore lint/suspicious/noTemplateCurlyInString: Compose's syntax, not a template literal
  expect(interpolate(model, { B: '', C: 'set' })).toEqual({ x: '1  set ${D} ' })
})

test('the lite override replaces the healthcheck test and the /data volume, keeping the ports', () => {
  const base = parseComposeYaml(read('docker-compose.yml'))
  const lite = parseComposeYaml(read('docker-compose.lite.yml'))
  const merged = interpolate(mergeCompose(base, lite), {}) as {
    services: Record<string, { build: { target?: string }; healthcheck: { test: string[] }; volumes: string[] }>
    volumes: Record<string, unknown>
  }
  const emulators = merged.services.emulators
  expect(emulators?.build.target).toBe('emulators-lite')
  expect(emulators?.healthcheck.test).toContain('http://127.0.0.1:8080/health')
  expect(emulators?.healthcheck.test).not.toContain('http://127.0.0.1:8080/')
  expect(emulators?.volumes).toEqual(['emulator-lite-data:/data'])
  expect(Object.keys(merged.volumes)).toEqual(['emulator-data', 'emulator-lite-data'])
})

test('the invariants catch a service without healthcheck, an orphaned one-shot, a clash of ports and a missing volume', () => {
  const model = {
    services: {
      api: { image: 'a:1', restart: 'unless-stopped', ports: ['127.0.0.1:8000:80'], volumes: ['data:/data'] },
      web: {
        image: 'w:1',
        restart: 'unless-stopped',
        healthcheck: { test: ['CMD', 'true'] },
        ports: ['127.0.0.1:8000:80'],
        depends_on: { api: { condition: 'service_healthy' } },
      },
      seed: { image: 's:1', restart: 'no' },
    },
  }
  const problems = composeInvariants(model, noImageHealthcheck).join('\n')
  expect(problems).toContain('api: a long-running service without a healthcheck')
  expect(problems).toContain('web: waits for api to be healthy, but api has no healthcheck')
  expect(problems).toContain('seed: one-shot, but no long-running service waits for it')
  expect(problems).toContain('web: host port 127.0.0.1:8000 is already published by api')
  expect(problems).toContain('api: volume data is not declared under volumes')
})

test('the repository Compose model keeps every invariant', () => {
  const model = interpolate(parseComposeYaml(read('docker-compose.yml')), {})
  expect(composeInvariants(model, noImageHealthcheck)).toEqual([])
})

test('the Dockerfile lint accepts a pinned, multi-stage, non-root image', () => {
  expect(lintDockerfile(GOOD_DOCKERFILE, { targets: ['app'], ...withEverything })).toEqual([])
})

test('the Dockerfile lint rejects unpinned bases, one stage, root, ADD of a URL, shell-form CMD and npm install', () => {
  const bad = `
FROM node:latest
ADD https://example.org/tool.tgz /opt/
RUN npm install
CMD node index.js
`
  const problems = lintDockerfile(bad, { targets: [], ...withEverything }).join('\n')
  expect(problems).toContain('not a multi-stage build')
  expect(problems).toContain('base image node:latest is not pinned')
  expect(problems).toContain('ADD of a remote source')
  expect(problems).toContain('npm install (use npm ci')
  expect(problems).toContain('CMD in shell form')
  expect(problems).toContain('runs as root (no USER)')
  const untagged = lintDockerfile(GOOD_DOCKERFILE.replace('node:24-bookworm-slim', 'node'), {
    targets: ['app'],
    ...withEverything,
  })
  expect(untagged.join('\n')).toContain('base image node is not pinned')
  const root = lintDockerfile(GOOD_DOCKERFILE.replace('USER node', 'USER root'), {
    targets: ['app'],
    ...withEverything,
  })
  expect(root).toEqual(['target app: USER root is root'])
})

test('the Dockerfile lint rejects a COPY of a path the build context does not have or excludes', () => {
  const text = `${GOOD_DOCKERFILE}\nCOPY tests/e2e/ /app/tests/\nCOPY missing.txt /app/\n`
  const problems = lintDockerfile(text, {
    targets: ['app'],
    sourceExists: (path: string) => path !== 'missing.txt',
    isIgnored: dockerignoreMatcher(read('.dockerignore')),
  })
  expect(problems.join('\n')).toContain('COPY source tests/e2e/ is excluded by .dockerignore')
  expect(problems.join('\n')).toContain('COPY source missing.txt does not exist')
})

test('.dockerignore keeps the manifests npm ci needs and drops node_modules, data and tests', () => {
  const isIgnored = dockerignoreMatcher(read('.dockerignore'))
  expect(isIgnored('tests/package.json')).toBe(false)
  expect(isIgnored('api/src/index.ts')).toBe(false)
  expect(isIgnored('.env.example')).toBe(false)
  expect(isIgnored('tests/e2e/stack.spec.ts')).toBe(true)
  expect(isIgnored('node_modules/zod/package.json')).toBe(true)
  expect(isIgnored('infra/emulator-lite/node_modules/x')).toBe(true)
  expect(isIgnored('.data/emulator-lite/db.sqlite')).toBe(true)
  expect(isIgnored('.env')).toBe(true)
  expect(isIgnored('api/src/app.test.ts')).toBe(true)
})

test('every Node base image the Compose stack builds from is on the pinned major, and another major is named', () => {
  const pinned = Number(read('.node-version').trim().split('.')[0])
  const files = [
    'docker-compose.yml',
    'docker-compose.lite.yml',
    '.env.example',
    'infra/docker/node.Dockerfile',
    'infra/docker/emulators.Dockerfile',
    'infra/docker/web.Dockerfile',
  ].map((file) => ({ file, text: read(file) }))
  expect(nodeImageProblems(files, pinned)).toEqual([])
  // Each way an image is named: a Dockerfile's ARG default and FROM, a Compose default, .env.example.
  const old = [
    {
      file: 'Dockerfile',
      text: 'ARG NODE_IMAGE=node:20.20-bookworm-slim\nFROM node:22 AS x\nRUN chown node:node /data',
    },
    { file: 'compose.yml', text: `  NODE_IMAGE: \${NODE_IMAGE:-node:lts-bookworm-slim}` },
    { file: '.env', text: `NODE_IMAGE=node:${pinned}-bookworm-slim` },
  ]
  expect(nodeImageProblems(old, pinned)).toEqual([
    `Dockerfile:1: node:20.20-bookworm-slim is not Node ${pinned} (.node-version)`,
    `Dockerfile:2: node:22 is not Node ${pinned} (.node-version)`,
    `compose.yml:1: node:lts-bookworm-slim is not Node ${pinned} (.node-version)`,
  ])
})
