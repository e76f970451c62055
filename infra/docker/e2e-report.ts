// The end of `make test-e2e-containers` (infra/docker/test-e2e-containers.ts): the suite's figures
// and the names of what failed, from Playwright's JSON report (results.json).

/** The suite's figures from Playwright's JSON report, and the titles of what failed. */
export function summarize(report: unknown): { counts: Record<string, number>; failed: string[] } {
  const data = report as {
    stats?: Record<string, number>
    suites?: Suite[]
  }
  type Spec = { title: string; file?: string; tests?: { projectName?: string; status?: string }[] }
  type Suite = { title: string; file?: string; specs?: Spec[]; suites?: Suite[] }
  const failed: string[] = []
  const walk = (suite: Suite, path: string[]) => {
    const here = suite.title && !suite.title.endsWith('.ts') ? [...path, suite.title] : path
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === 'unexpected') {
          failed.push(`[${test.projectName}] ${spec.file ?? suite.file ?? ''} › ${[...here, spec.title].join(' › ')}`)
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child, here)
  }
  for (const suite of data.suites ?? []) walk(suite, [])
  const stats = data.stats ?? {}
  return {
    counts: {
      passed: stats.expected ?? 0,
      failed: stats.unexpected ?? 0,
      flaky: stats.flaky ?? 0,
      skipped: stats.skipped ?? 0,
    },
    failed,
  }
}
