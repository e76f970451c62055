// `make bench` (daily overview): a throwaway native stack with the demo seed plus a location of
// 60 persons × 90 days (written here with firebase-admin), then /daily in Chromium as an employee of
// that location: Firestore requests per view (target ≤ 3), time from navigation to rendered rows
// (p50 over day switches, target < 300 ms) and the route's own chunk (gzip, target ≤ 25 KB).
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { startTestStack } from '@bosted/stack/testing'
import { chromium, type Request } from '@playwright/test'
import { initializeApp } from 'firebase-admin/app'
import { getAuth } from 'firebase-admin/auth'
import { initializeFirestore } from 'firebase-admin/firestore'

const PERSONS = 60
const DAYS = 90
const SWITCHES = 20
const LOCATION = 'bench-location'
const EMAIL = 'bench@bench.dk'
const PASSWORD = 'bench1234'
const WEB = join(dirname(fileURLToPath(import.meta.url)), '..')

const dayFormat = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Copenhagen' })
const today = dayFormat.format(new Date())
const addDays = (day: string, days: number) => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number]
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10)
}
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}

console.log('starting a throwaway stack (build, seed) …')
const stack = await startTestStack({ serveWeb: true, seed: true, build: true })
try {
  for (const [key, value] of Object.entries(stack.env)) if (value !== undefined) process.env[key] = value
  const projectId = stack.env.FIREBASE_PROJECT_ID as string
  const app = initializeApp({ projectId }, 'bench')
  const db = initializeFirestore(app, { preferRest: true })
  db.settings({ auth: { getRequestHeaders: async () => ({}) } } as never)

  const started = Date.now()
  const createdAt = new Date().toISOString()
  const { uid } = await getAuth(app).createUser({ email: EMAIL, password: PASSWORD, displayName: 'Bench Bruger' })
  await getAuth(app).setCustomUserClaims(uid, { userRole: 'employee' })
  const personIds = Array.from({ length: PERSONS }, (_, index) => `bench-p${String(index + 1).padStart(2, '0')}`)
  const writes: [string, Record<string, unknown>][] = [
    [
      `users/${uid}`,
      {
        id: uid,
        firstName: 'Bench',
        lastName: 'Bruger',
        createdAt,
        avatarUrl: null,
        contact: null,
        jobRole: 'Medarbejder',
        locations: [LOCATION],
        userRole: 'employee',
        settings: { disabled: false },
        locale: 'da',
      },
    ],
    [
      `locations/${LOCATION}`,
      {
        id: LOCATION,
        createdAt,
        name: 'Benchmark-bostedet',
        logoUrl: null,
        persons: personIds,
        settings: { answerOptions: ['good', 'bad'], subscription: null, notifications: { reminderTime: '20:00' } },
      },
    ],
    [
      `locations/${LOCATION}/answers/good`,
      { id: 'good', text: 'Godt', value: 3, hidden: false, entity: 'location', createdAt },
    ],
    [
      `locations/${LOCATION}/answers/bad`,
      { id: 'bad', text: 'Skidt', value: 1, hidden: false, entity: 'location', createdAt },
    ],
  ]
  personIds.forEach((id, index) => {
    writes.push([
      `persons/${id}`,
      {
        id,
        firstName: `Borger${index + 1}`,
        lastName: 'Bench',
        createdAt,
        avatarUrl: null,
        contact: null,
        settings: {
          answerOptions: [],
          disabled: false,
          includePlaceAnswers: true,
          features: { all: false, freeText: false, speechToText: false, answers: false },
          notifications: null,
        },
        locale: 'da',
        locationId: LOCATION,
      },
    ])
    for (let back = 0; back < DAYS; back += 1) {
      const day = addDays(today, -back)
      const good = (index + back) % 3 !== 0
      writes.push([
        `persons/${id}/registrations/r${back}`,
        {
          answerId: good ? 'good' : 'bad',
          text: good ? 'Godt' : 'Skidt',
          value: good ? 3 : 1,
          entity: 'location',
          day,
          createdAt: `${day}T10:00:00.000Z`,
          createdBy: uid,
          createdByName: 'Bench Bruger',
          personId: id,
          locationId: LOCATION,
        },
      ])
      if ((index + back) % 4 === 0)
        writes.push([
          `persons/${id}/notes/n${back}`,
          {
            text: 'En rolig dag.',
            day,
            source: 'keyboard',
            createdAt: `${day}T11:00:00.000Z`,
            createdBy: uid,
            authorName: 'Bench Bruger',
            personId: id,
            locationId: LOCATION,
          },
        ])
    }
  })
  for (let start = 0; start < writes.length; start += 500) {
    const batch = db.batch()
    for (const [path, data] of writes.slice(start, start + 500)) batch.set(db.doc(path), data)
    await batch.commit()
  }
  console.log(`wrote ${writes.length} documents (${PERSONS} persons × ${DAYS} days) in ${Date.now() - started} ms`)

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  })
  const page = await browser.newPage({
    baseURL: stack.urls.app ?? '',
    locale: 'da-DK',
    timezoneId: 'Europe/Copenhagen',
  })
  let firestoreRequests: string[] = []
  page.on('request', (request: Request) => {
    const url = request.url()
    if (url.includes('/v1/projects/')) firestoreRequests.push(url.replace(/^.*documents/, '').replace(/\?.*$/, ''))
  })
  await page.goto('/login')
  await page.getByLabel('Email').fill(EMAIL)
  await page.getByLabel('Adgangskode').fill(PASSWORD)
  await page.getByRole('button', { name: 'Log ind' }).click()
  await page.getByRole('list', { name: 'Borgere' }).waitFor()

  // A cold view of another day: a full page load, the shell's own reads excluded (user, locations).
  firestoreRequests = []
  await page.goto(`/daily?day=${addDays(today, -1)}`)
  await page.getByRole('list', { name: 'Borgere' }).waitFor()
  await page.waitForLoadState('networkidle')
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
    firestoreRequests = []
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
    await page.waitForLoadState('networkidle')
    perSwitch.push(firestoreRequests.length)
  }
  await browser.close()

  // The route's code: its own chunk and the chunks it pulls in that the signed-in shell does not have.
  const manifestFile = join(WEB, 'dist/.vite/manifest.json')
  let chunk = 'n/a'
  if (existsSync(manifestFile)) {
    type Chunk = { file: string; imports?: string[] }
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, Chunk>
    const closure = (keys: string[], files = new Set<string>()): Set<string> => {
      for (const key of keys) {
        const entry = manifest[key]
        if (entry === undefined || files.has(entry.file)) continue
        files.add(entry.file)
        closure(entry.imports ?? [], files)
      }
      return files
    }
    const shell = closure(['index.html', 'src/app/routes/app-shell.tsx'])
    const own = [...closure(['src/app/routes/daily.tsx'])].filter((file) => !shell.has(file))
    const gz = (file: string) => gzipSync(readFileSync(join(WEB, 'dist', file)), { level: 5 }).length
    // zod's runtime (the domain schemas) is shared by every data page; counted apart.
    const isZod = (file: string) => readFileSync(join(WEB, 'dist', file), 'utf8').includes('ZodError')
    const route = own.filter((file) => !isZod(file))
    const kb = (files: string[]) => (files.reduce((sum, file) => sum + gz(file), 0) / 1024).toFixed(1)
    const main = manifest['src/app/routes/daily.tsx']?.file
    chunk =
      `${kb(route)} KB in ${route.length} files (daily.tsx itself ${main ? kb([main]) : '?'} KB)` +
      ` + zod runtime ${kb(own.filter(isZod))} KB shared by every data page`
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
  console.log(`  route code beyond the shell (gzip 5): ${chunk} — target ≤ 25 KB`)
} finally {
  await stack.stop()
}
