// `make test`: every layer in order (lint, typecheck, unit, integration, parity, end-to-end), each to the
// end even when an earlier one failed, then one summary line per layer and the overall count.
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join, relative } from 'node:path'

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

// The names of the failed (and, for Playwright, passed-on-retry) tests, so the summary at the end of
// a long CI log says which test it was.
const vitestProblems = (file) => {
  const report = JSON.parse(readFileSync(file, 'utf8'))
  return report.testResults.flatMap((result) =>
    result.assertionResults
      .filter((assertion) => assertion.status === 'failed')
      .map((assertion) => `failed: ${relative(root, result.name)} › ${assertion.fullName}`),
  )
}
const playwrightProblems = (file) => {
  const problems = []
  const walk = (suite) => {
    for (const spec of suite.specs ?? [])
      for (const run of spec.tests ?? [])
        if (run.status === 'unexpected' || run.status === 'flaky')
          problems.push(
            `${run.status === 'flaky' ? 'flaky (passed on retry)' : 'failed'}: [${run.projectName}] ${spec.file} › ${spec.title}`,
          )
    for (const child of suite.suites ?? []) walk(child)
  }
  for (const suite of JSON.parse(readFileSync(file, 'utf8')).suites ?? []) walk(suite)
  return problems
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
  problems: () => vitestProblems(join(results, `${name}.json`)),
})

const layers = [
  { name: 'lint', command: ['npx', 'biome', 'check', '--error-on-warnings', '.'] },
  { name: 'typecheck', command: ['npm', 'run', '--silent', 'typecheck'] },
  vitestLayer('unit', ['unit', 'web']),
  vitestLayer('integration', ['integration']),
  // emulator-lite against Google's Firestore emulator (gcloud, Java): the access matrix on production's
  // rules engine and the bounded differential; fails when the official emulator does not start.
  vitestLayer('parity', ['parity']),
  {
    name: 'e2e',
    command: ['npx', 'playwright', 'test', '-c', 'tests/playwright.config.ts'],
    report: () => playwrightCounts(join(results, 'e2e.json')),
    problems: () => playwrightProblems(join(results, 'e2e.json')),
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
  let problems = []
  if (layer.problems) {
    try {
      problems = layer.problems()
    } catch {
      problems = []
    }
  }
  // Vitest fails a run on an error outside any test (an unhandled rejection) with every test passed; the
  // JSON report does not count it, so the summary says where to look.
  if (run.status !== 0 && counts !== null && counts.failed === 0 && problems.length === 0)
    problems.push(
      `failed outside any test (exit ${run.status}): see "Unhandled" or "Error" in the ${layer.name} log above`,
    )
  summary.push({ name: layer.name, ok: run.status === 0, counts, seconds, problems })
}

console.log('\n=== summary ===')
let passed = 0
let failed = 0
let skipped = 0
for (const { name, ok, counts, seconds, problems } of summary) {
  const detail = counts
    ? `${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`
    : ok
      ? 'ok'
      : 'FAILED'
  console.log(`${name.padEnd(12)} ${ok ? 'ok    ' : 'FAILED'} ${detail} (${seconds} s)`)
  for (const problem of problems) console.log(`  ${problem}`)
  if (counts) {
    passed += counts.passed
    failed += counts.failed
    skipped += counts.skipped
  }
  if (!ok && (!counts || counts.failed === 0)) failed += 1
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exit(summary.every((layer) => layer.ok) ? 0 : 1)
