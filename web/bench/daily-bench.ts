// `make bench` (daily overview): /daily in Chromium as an employee of the benchmark location (60
// persons × 90 days, bench-location.ts): Firestore requests per view (target ≤ 3), time from
// navigation to rendered rows (p50 over day switches, target < 300 ms) and the route's own chunk
// (gzip, target ≤ 25 KB).
import { addDays, DAYS, PERSONS, percentile, routeChunk, settled, startBenchLocation, today } from './bench-location.ts'

const SWITCHES = 20

const { page, firestoreRequests, close } = await startBenchLocation()
try {
  await page.getByRole('list', { name: 'Borgere' }).waitFor()

  // A cold view of another day: a full page load, the shell's own reads excluded (user, locations).
  firestoreRequests.length = 0
  await page.goto(`/daily?day=${addDays(today, -1)}`)
  await page.getByRole('list', { name: 'Borgere' }).waitFor()
  await settled(page)
  const cold = firestoreRequests.filter((url) => url.includes(':runQuery'))
  const rows = await page.getByRole('list', { name: 'Borgere' }).getByRole('article').count()

  // Full page loads (reload: app start, session restore, shell, then the rows), measured in the page.
  const loads: number[] = []
  for (let run = 0; run < 5; run += 1) {
    await page.reload()
    await page.getByRole('list', { name: 'Borgere' }).getByRole('article').first().waitFor()
    loads.push((await page.evaluate('performance.now()')) as number)
  }

  // Day switches (client-side navigation): time from the click to the new day's rows.
  const timings: number[] = []
  const perSwitch: number[] = []
  for (let step = 2; step < SWITCHES + 2; step += 1) {
    firestoreRequests.length = 0
    const expected = new Intl.DateTimeFormat('da-DK', {
      timeZone: 'UTC',
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
    }).format(new Date(`${addDays(today, -step)}T12:00:00Z`))
    // A string, not a function: tsx would add helpers the page does not have.
    const ms = (await page.evaluate(`(async () => {
      const button = [...document.querySelectorAll('button')].find((b) => b.textContent.includes('Forrige dag'))
      const t0 = performance.now()
      button.click()
      await new Promise((resolve) => {
        const check = () => {
          const date = document.querySelector('.daily__date')?.textContent
          const ready = document.querySelector('.daily__list article') && !document.querySelector('[aria-busy="true"]')
          if (date === ${JSON.stringify(expected)} && ready) resolve()
          else requestAnimationFrame(check)
        }
        check()
      })
      return performance.now() - t0
    })()`)) as number
    timings.push(ms)
    await settled(page)
    perSwitch.push(firestoreRequests.length)
  }

  console.log(`\n/daily with ${rows} persons (of ${PERSONS}), ${DAYS} days of history`)
  console.log(
    `  Firestore requests, cold view:  ${cold.length} queries (${cold.join(', ') || 'none'}) — target ≤ 3 for the rows`,
  )
  console.log(`  Firestore requests, day switch: median ${percentile(perSwitch, 50)} (max ${Math.max(...perSwitch)})`)
  console.log(
    `  navigation → rendered rows:     p50 ${percentile(timings, 50).toFixed(0)} ms, p90 ${percentile(timings, 90).toFixed(0)} ms over ${SWITCHES} day switches — target p50 < 300 ms`,
  )
  console.log(
    `  full page load → rendered rows:  p50 ${percentile(loads, 50).toFixed(0)} ms over ${loads.length} reloads`,
  )
  console.log(`  route code beyond the shell (gzip 5): ${routeChunk('src/app/routes/daily.tsx')} — target ≤ 25 KB`)
} finally {
  await close()
}
