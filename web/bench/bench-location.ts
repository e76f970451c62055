// The benchmark location of the care pages' benchmarks (`make bench`): a throwaway native stack with
// the demo seed plus a location of 60 persons × 90 days of registrations and notes (written with
// firebase-admin), and Chromium signed in as an employee of that location. TABLET_BENCH_SKIP_BUILD=1
// serves web/dist as it is, as tablet-bench.ts does (a build of other sources, for "before").
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { startTestStack } from '@bosted/stack/testing'
import type { Browser, Page, Request } from '@playwright/test'
import { initializeApp } from 'firebase-admin/app'
import { getAuth } from 'firebase-admin/auth'
import { initializeFirestore } from 'firebase-admin/firestore'
import { launchBenchChromium } from './bench-browser.ts'

export const PERSONS = 60
export const DAYS = 90
const LOCATION = 'bench-location'
const EMAIL = 'bench@bench.dk'
const PASSWORD = 'bench1234'
const WEB = join(dirname(fileURLToPath(import.meta.url)), '..')

const dayFormat = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Copenhagen' })
export const today = dayFormat.format(new Date())
export const addDays = (day: string, days: number) => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number]
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10)
}
export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}

/** Any request of a listener's WebChannel: the hanging GET, the handshake and the forward POSTs. */
export const isListenChannel = (url: string) => url.includes('/google.firestore.v1.Firestore/Listen/channel')
/** A live page's open listener: the full SDK's WebChannel back channel, one response that never ends. */
export const isListenStream = (url: string, method: string) => method === 'GET' && isListenChannel(url)

/**
 * Waits until `page` has had no request in flight for `quietMs`, a listener's open stream aside:
 * Playwright's `networkidle` never comes on a live page (issue 36). Requests already in flight when
 * it is called are not seen, so it is called right after what starts them.
 */
export async function settled(page: Page, quietMs = 500, timeoutMs = 30_000): Promise<void> {
  const open = new Set<Request>()
  let last = Date.now()
  const start = (request: Request) => {
    if (isListenStream(request.url(), request.method())) return
    open.add(request)
    last = Date.now()
  }
  const end = (request: Request) => {
    if (open.delete(request)) last = Date.now()
  }
  page.on('request', start)
  page.on('requestfinished', end)
  page.on('requestfailed', end)
  try {
    const until = Date.now() + timeoutMs
    while (open.size > 0 || Date.now() - last < quietMs) {
      if (Date.now() > until) throw new Error(`${open.size} request(s) still open after ${timeoutMs} ms`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  } finally {
    page.off('request', start)
    page.off('requestfinished', end)
    page.off('requestfailed', end)
  }
}

export type BenchLocation = {
  page: Page
  /** Firestore REST calls the page made since the array was last emptied (paths only). */
  firestoreRequests: string[]
  close(): Promise<void>
}

/** The benchmark location's employee. */
export const BENCH_ACCOUNT = { email: EMAIL, password: PASSWORD }

/**
 * Writes the benchmark location (60 persons × 90 days) and its employee into a running stack with
 * firebase-admin.
 */
export async function writeBenchLocation(stack: Awaited<ReturnType<typeof startTestStack>>): Promise<void> {
  // firebase-admin finds the emulators through the environment.
  for (const [key, value] of Object.entries(stack.env)) if (value !== undefined) process.env[key] = value
  const projectId = stack.env.FIREBASE_PROJECT_ID as string
  {
    const app = initializeApp({ projectId }, 'bench')
    const db = initializeFirestore(app, { preferRest: true })
    db.settings({
      auth: { getRequestHeaders: async () => ({}), fetch: (url: string, init: RequestInit) => fetch(url, init) },
    } as never)

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
  }
}

/** Starts the stack, writes the benchmark location and signs in; the page is on /daily. */
export async function startBenchLocation(): Promise<BenchLocation> {
  console.log('starting a throwaway stack (build, seed) …')
  const stack = await startTestStack({ serveWeb: true, seed: true, build: process.env.TABLET_BENCH_SKIP_BUILD !== '1' })
  let browser: Browser | undefined
  try {
    await writeBenchLocation(stack)
    browser = await launchBenchChromium(['--no-sandbox', '--disable-gpu'])
    const page = await browser.newPage({
      baseURL: stack.urls.app ?? '',
      locale: 'da-DK',
      timezoneId: 'Europe/Copenhagen',
    })
    const firestoreRequests: string[] = []
    page.on('request', (request: Request) => {
      const url = request.url()
      if (url.includes('/v1/projects/')) firestoreRequests.push(url.replace(/^.*documents/, '').replace(/\?.*$/, ''))
    })
    await page.goto('/login')
    await page.getByLabel('Email').fill(EMAIL)
    await page.getByLabel('Adgangskode').fill(PASSWORD)
    await page.getByRole('button', { name: 'Log ind' }).click()
    await page.waitForURL(/\/daily$/)
    return {
      page,
      firestoreRequests,
      close: async () => {
        await browser?.close()
        await stack.stop()
      },
    }
  } catch (error) {
    await browser?.close()
    await stack.stop()
    throw error
  }
}

/**
 * A route's code beyond the signed-in shell (gzip 5): its own chunk and what it pulls in that the
 * shell does not have; zod's runtime (the domain schemas), shared by every data page, counted apart.
 */
export function routeChunk(route: string): string {
  const manifest = readManifest()
  if (manifest === null) return 'n/a'
  const closure = (keys: string[]) => manifestClosure(manifest, keys)
  const shell = closure(['index.html', 'src/app/routes/app-shell.tsx'])
  const own = [...closure([route])].filter((file) => !shell.has(file))
  const gz = (file: string) => gzipSync(readFileSync(join(WEB, 'dist', file)), { level: 5 }).length
  const isZod = (file: string) => readFileSync(join(WEB, 'dist', file), 'utf8').includes('ZodError')
  const code = own.filter((file) => !isZod(file))
  const kb = (files: string[]) => (files.reduce((sum, file) => sum + gz(file), 0) / 1024).toFixed(1)
  const main = manifest[route]?.file
  const name = route.split('/').at(-1)
  return (
    `${kb(code)} KB in ${code.length} files (${name} itself ${main ? kb([main]) : '?'} KB)` +
    ` + zod runtime ${kb(own.filter(isZod))} KB shared by every data page`
  )
}

type Manifest = Record<string, { file: string; imports?: string[] }>

/** The built web's Vite manifest, or null before a build. */
export function readManifest(): Manifest | null {
  const file = join(WEB, 'dist/.vite/manifest.json')
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Manifest) : null
}

/** Every file the given entries load, their static imports included. */
export function manifestClosure(manifest: Manifest, keys: string[], files = new Set<string>()): Set<string> {
  for (const key of keys) {
    const entry = manifest[key]
    if (entry === undefined || files.has(entry.file)) continue
    files.add(entry.file)
    manifestClosure(manifest, entry.imports ?? [], files)
  }
  return files
}

/** A built file's text. */
export const builtFile = (file: string) => readFileSync(join(WEB, 'dist', file), 'utf8')
