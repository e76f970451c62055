// `make bench` (Statistik): /statistics in Chromium as an employee of the benchmark location (60
// persons × 90 days, bench-location.ts): Firestore requests and bytes, the figures' data from the api
// (GET /api/statistics, ADR 0027: its bytes as received), time from navigation to the
// charts drawn (target p50 < 1 s for 90 days), and the route's chunk with uPlot (target ≤ 80 KB gzip,
// nothing of it in the /login or /daily bundles).
import {
  builtFile,
  manifestClosure,
  percentile,
  readManifest,
  routeChunk,
  startBenchLocation,
} from './bench-location.ts'

const RUNS = 7

const { page, firestoreRequests, close } = await startBenchLocation()
try {
  await page.getByRole('list', { name: 'Borgere' }).waitFor()
  let bytes = 0
  let apiBytes = 0
  let apiMs = 0
  page.on('requestfinished', async (request) => {
    const api = request.url().includes('/api/statistics')
    if (!api && !request.url().includes('/v1/projects/')) return
    const sizes = await request.sizes().catch(() => null)
    if (api) {
      apiBytes += sizes?.responseBodySize ?? 0
      apiMs = request.timing().responseEnd
    } else bytes += sizes?.responseBodySize ?? 0
  })
  const chartsDrawn = `(async () => {
    await new Promise((resolve) => {
      const check = () => {
        const ready = document.querySelectorAll('.chart canvas').length >= 2 && !document.querySelector('[aria-busy="true"]')
        if (ready) resolve()
        else requestAnimationFrame(check)
      }
      check()
    })
    return performance.now()
  })()`

  const measure = async (days: number) => {
    const timings: number[] = []
    let requests = 0
    let transferred = 0
    let fromApi = 0
    const apiTimings: number[] = []
    for (let run = 0; run < RUNS; run += 1) {
      firestoreRequests.length = 0
      bytes = 0
      apiBytes = 0
      // A full page load of the period: app start, session, shell, then the charts (timed in the page).
      await page.goto(`/statistics?period=${days}`)
      timings.push((await page.evaluate(chartsDrawn)) as number)
      await page.waitForLoadState('networkidle')
      requests = firestoreRequests.filter((url) => /:run(Aggregation)?Query/.test(url)).length
      transferred = bytes
      fromApi = apiBytes
      apiTimings.push(apiMs)
    }
    return { timings, requests, transferred, fromApi, apiTimings }
  }
  const month = await measure(30)
  const quarter = await measure(90)

  // Nothing of uPlot in what /login and /daily load.
  const manifest = readManifest()
  const early =
    manifest === null
      ? new Set<string>()
      : manifestClosure(manifest, [
          'index.html',
          'src/app/routes/login.tsx',
          'src/app/routes/app-shell.tsx',
          'src/app/routes/daily.tsx',
        ])
  const leaks = [...early].filter((file) => builtFile(file).includes('uPlot'))

  const line = (label: string, result: Awaited<ReturnType<typeof measure>>) =>
    `  ${label}: ${result.requests} queries, ${(result.transferred / 1024).toFixed(0)} KB from Firestore, ${(result.fromApi / 1024).toFixed(0)} KB from /api/statistics (answered in p50 ${percentile(result.apiTimings, 50).toFixed(0)} ms), full load → charts p50 ${percentile(result.timings, 50).toFixed(0)} ms, p90 ${percentile(result.timings, 90).toFixed(0)} ms (${RUNS} loads)`
  console.log('\n/statistics at a location of 60 persons with 90 days of registrations')
  console.log(line('30 days', month))
  console.log(`${line('90 days', quarter)} — target p50 < 1 s`)
  console.log(
    `  route code beyond the shell (gzip 5): ${routeChunk('src/app/routes/statistics/statistics.tsx')} — target ≤ 80 KB`,
  )
  console.log(`  uPlot in the /login or /daily bundles: ${leaks.length === 0 ? 'no' : leaks.join(', ')}`)
} finally {
  await close()
}
