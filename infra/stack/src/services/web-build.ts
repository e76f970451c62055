import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { REPO_ROOT } from '../env.ts'
import { WEB_DIST } from './web.ts'

/** What the bundle is built from: the web app and its service worker, the domain package it imports, and the lockfile. */
const INPUTS = [
  'web/src',
  'web/service-worker',
  'web/public',
  'web/index.html',
  'web/package.json',
  'web/vite.config.ts',
  'web/vite-service-worker.ts',
  'web/tsconfig.json',
  'domain/src',
  'domain/package.json',
  'package-lock.json',
]
const FINGERPRINT_FILE = join(WEB_DIST, '.build-fingerprint')

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return []
  if (!statSync(path).isDirectory()) return [path]
  return readdirSync(path, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => (entry.name === 'node_modules' ? [] : filesUnder(join(path, entry.name))))
}

/** A hash of every input file's path and content. */
export function webSourcesFingerprint(): string {
  const hash = createHash('sha256')
  for (const input of INPUTS) {
    for (const file of filesUnder(join(REPO_ROOT, input))) {
      hash.update(relative(REPO_ROOT, file)).update('\0').update(readFileSync(file)).update('\0')
    }
  }
  return hash.digest('hex')
}

/**
 * Builds web/dist unless it was built from exactly the current sources and lockfile, so a warm
 * `make start` skips the build. Returns whether it built.
 */
export function buildWebIfChanged(log: (line: string) => void): boolean {
  const fingerprint = webSourcesFingerprint()
  const built = existsSync(FINGERPRINT_FILE) ? readFileSync(FINGERPRINT_FILE, 'utf8').trim() : null
  if (built === fingerprint && existsSync(join(WEB_DIST, 'index.html'))) {
    log('web bundle is up to date (sources and lockfile unchanged)')
    return false
  }
  log('building the web app (npm run -w web build) …')
  // Always a production bundle: a build started from a test runner (vitest sets NODE_ENV=test) would
  // otherwise be React's development build, which every later run then reuses.
  const build = spawnSync('npm', ['run', '-w', 'web', 'build'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production' },
  })
  if (build.status !== 0) throw new Error(`web build failed:\n${build.stdout}\n${build.stderr}`)
  writeFileSync(FINGERPRINT_FILE, `${fingerprint}\n`)
  return true
}
