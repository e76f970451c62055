// `make bench` (diaries): /notes in Chromium as an employee of the benchmark location (60 persons ×
// 90 days, 1,350 diary entries; bench-location.ts): Firestore requests for the first page (target
// ≤ 3), time from navigation to the rendered list (p50, target < 300 ms) and the route's own chunk
// (gzip, target ≤ 25 KB).
import { DAYS, PERSONS, percentile, routeChunk, settled, startBenchLocation } from './bench-location.ts'

const RUNS = 10

const { page, firestoreRequests, close } = await startBenchLocation()
try {
  await page.getByRole('list', { name: 'Borgere' }).waitFor()

  // A cold first page: a full page load of /notes, the shell's own reads excluded (user, locations).
  firestoreRequests.length = 0
  await page.goto('/notes')
  await page.locator('.note-days article').first().waitFor()
  await settled(page)
  const cold = firestoreRequests.filter((url) => url.includes(':runQuery'))
  const entries = await page.locator('.note-days article').count()

  // Navigation from the daily overview to Dagbøger, each time after a reload (no cached entries):
  // time from the click to the first page of entries, measured in the page.
  const timings: number[] = []
  for (let run = 0; run < RUNS; run += 1) {
    await page.goto('/daily')
    await page.getByRole('list', { name: 'Borgere' }).waitFor()
    await settled(page)
    // A string, not a function: tsx would add helpers the page does not have.
    const ms = (await page.evaluate(`(async () => {
      const link = [...document.querySelectorAll('header a')].find((a) => a.textContent.trim() === 'Dagbøger')
      const t0 = performance.now()
      link.click()
      await new Promise((resolve) => {
        const check = () => {
          const ready = document.querySelector('.note-days article') && !document.querySelector('[aria-busy="true"]')
          if (ready) resolve()
          else requestAnimationFrame(check)
        }
        check()
      })
      return performance.now() - t0
    })()`)) as number
    timings.push(ms)
  }

  // "Vis flere": the next page by cursor.
  firestoreRequests.length = 0
  await page.getByRole('button', { name: 'Vis flere' }).click()
  await page.locator('.note-days article').nth(entries).waitFor()
  await settled(page)
  const more = firestoreRequests.filter((url) => url.includes(':runQuery')).length

  console.log(`\n/notes at a location of ${PERSONS} persons with ${DAYS} days of diary entries`)
  console.log(
    `  Firestore requests, first page: ${cold.length} queries (${cold.join(', ') || 'none'}), ${entries} entries — target ≤ 3`,
  )
  console.log(`  Firestore requests, "Vis flere": ${more}`)
  console.log(
    `  navigation → rendered list:     p50 ${percentile(timings, 50).toFixed(0)} ms, p90 ${percentile(timings, 90).toFixed(0)} ms over ${RUNS} navigations from /daily — target p50 < 300 ms`,
  )
  console.log(`  route code beyond the shell (gzip 5): ${routeChunk('src/app/routes/notes.tsx')} — target ≤ 25 KB`)
} finally {
  await close()
}
