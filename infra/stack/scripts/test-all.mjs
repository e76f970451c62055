// `make test`: every layer in order (lint, typecheck, unit, integration, end-to-end), each to the
// end even when an earlier one failed, then one summary line per layer and the overall count.
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'

const root = new URL('../../..', import.meta.url).pathname
const results = join(root, '.data/test-results')
rmSync(results, { recursive: true, force: true })
mkdirSync(results, { recursive: true })

const vitestCounts = (file) => {
  const report = JSON.parse(readFileSync(file, 'utf8'))
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests + report.numTodoTests,
  }
}
const playwrightCounts = (file) => {
  const { stats } = JSON.parse(readFileSync(file, 'utf8'))
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected, skipped: stats.skipped }
}

/** A vitest run of the given projects that also writes a JSON report for the summary. */
const vitestLayer = (name, projects) => ({
  name,
  command: [
    'npx',
    'vitest',
    'run',
    ...projects.flatMap((project) => ['--project', project]),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${results}/${name}.json`,
  ],
  report: () => vitestCounts(join(results, `${name}.json`)),
})

const layers = [
  { name: 'lint', command: ['npx', 'biome', 'check', '--error-on-warnings', '.'] },
  { name: 'typecheck', command: ['npm', 'run', '--silent', 'typecheck'] },
  vitestLayer('unit', ['unit', 'web']),
  vitestLayer('integration', ['integration']),
  {
    name: 'e2e',
    command: ['npx', 'playwright', 'test', '-c', 'tests/playwright.config.ts'],
    report: () => playwrightCounts(join(results, 'e2e.json')),
  },
]

const only = process.argv.slice(2)
const summary = []
for (const layer of layers.filter((l) => only.length === 0 || only.includes(l.name))) {
  const started = Date.now()
  console.log(`\n=== ${layer.name} ===`)
  const run = spawnSync(layer.command[0], layer.command.slice(1), { cwd: root, stdio: 'inherit', env: process.env })
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  let counts = null
  if (layer.report) {
    try {
      counts = layer.report()
    } catch {
      counts = null
    }
  }
  summary.push({ name: layer.name, ok: run.status === 0, counts, seconds })
}

console.log('\n=== summary ===')
let passed = 0
let failed = 0
let skipped = 0
for (const { name, ok, counts, seconds } of summary) {
  const detail = counts
    ? `${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`
    : ok
      ? 'ok'
      : 'FAILED'
  console.log(`${name.padEnd(12)} ${ok ? 'ok    ' : 'FAILED'} ${detail} (${seconds} s)`)
  if (counts) {
    passed += counts.passed
    failed += counts.failed
    skipped += counts.skipped
  }
  if (!ok && (!counts || counts.failed === 0)) failed += 1
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exit(summary.every((layer) => layer.ok) ? 0 : 1)
