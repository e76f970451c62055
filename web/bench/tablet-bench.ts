// `make bench` (the care home's tablet, issue 34): every step a new user takes, in Chromium throttled
// through the DevTools protocol as the house's shared tablet on its wifi — 768×1024, 10 Mbit/s down,
// 5 up, 40 ms round trip, the CPU slowed 4× — with a cold cache for every run (a fresh browser
// context), and "Min dag" on a phone (390×844, same network and CPU). Prints the median and p90 time
// and the bytes transferred (as sent on the wire: compressed bodies and headers) of each step, and for
// each step the main thread's work until usable (its tasks' time, throttled, median): on a busy
// machine a change of 0.1 s shows there before it shows in the times.
//
// TABLET_BENCH_RUNS=N sets the runs per step (default 5; 2 is a quick look), TABLET_BENCH_LARGE=0
// leaves out the 60 persons × 90 days location (bench-location.ts), TABLET_BENCH_STEPS=<regex> measures
// only the steps whose names match (e.g. `statistics`), TABLET_BENCH_WATERFALL=1 prints each step's first
// run as a request waterfall (start, first byte and end of every request that reached the network, in ms
// from the navigation or the submit, and its bytes): where the serial waits are. TABLET_BENCH_PROFILE=1
// adds, in each page step's first run, one more returning visit under a CPU profiler (left out of the
// figures: the profiler slows it), from navigation until usable, and one profiled sign-in from the
// submit until /daily is usable; prints its self time by script and
// writes the profile to .data/bench/profiles (open it in Chrome's DevTools): where the main thread's
// time goes. Chromium runs without its window's own web pages (bench-browser.ts; BENCH_WINDOW_UI=1
// keeps them, as runs before 2026-11-28 had them).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism, loadavg } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startTestStack } from '@bosted/stack/testing'
import type { Browser, BrowserContext, CDPSession, Page } from '@playwright/test'
import { initializeApp } from 'firebase-admin/app'
import { initializeFirestore } from 'firebase-admin/firestore'
import { launchBenchChromium } from './bench-browser.ts'
import {
  BENCH_ACCOUNT,
  isListenChannel,
  isListenStream,
  percentile,
  settled,
  today,
  writeBenchLocation,
} from './bench-location.ts'
import { selfTimeByScript } from './cpu-profile.ts'

const RUNS = Math.max(1, Number(process.env.TABLET_BENCH_RUNS ?? 5))
const LARGE = process.env.TABLET_BENCH_LARGE !== '0'
const STEPS = new RegExp(process.env.TABLET_BENCH_STEPS ?? '')
const WATERFALL = process.env.TABLET_BENCH_WATERFALL === '1'
const PROFILE = process.env.TABLET_BENCH_PROFILE === '1'
const PROFILES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '.data', 'bench', 'profiles')
const DEMO_PASSWORD = 'demo1234'
const TABLET = { width: 768, height: 1024 }
const PHONE = { width: 390, height: 844 }
/** The tablet's wifi: 10 Mbit/s down, 5 up, 40 ms round trip (bytes per second for the protocol). */
const NETWORK = { offline: false, latency: 40, downloadThroughput: 10_000_000 / 8, uploadThroughput: 5_000_000 / 8 }
const CPU_SLOWDOWN = 4
/** Quiet time after the last response before the network counts as idle. */
const IDLE_MS = 500
const IDLE_GIVE_UP_MS = 20_000

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>

/**
 * When a page is usable: on `path` (if given), `count` elements match `selector`, and nothing is
 * loading (no aria-busy placeholder, no route-loading). Checked in the page on every animation
 * frame, by a function (the app's Content-Security-Policy allows no string evaluation).
 */
type Condition = { selector: string; path?: string; count?: number }
const READY = {
  login: { selector: 'form button[type="submit"]:not([disabled])' },
  daily: { path: '/daily', selector: 'ul.daily__list' },
  notes: { path: '/notes', selector: '.diary' },
  statistics: { selector: '.chart canvas', count: 2 },
  admin: { selector: 'table.admin-locations tbody tr' },
  person: { selector: 'ol.week' },
  me: { path: '/me', selector: '.me__greeting' },
} satisfies Record<string, Condition>

/** `mainMs`: the page's main thread at work until usable (its tasks' time, throttled). */
type Sample = { ms: number; bytes: number; requests: number; mainMs?: number }
/** One request of a waterfall: protocol times in seconds (monotonic), bytes on the wire. */
type Request = { url: string; method: string; start: number; firstByte?: number; end?: number; bytes: number }
type Row = { step: string; samples: Sample[] }

/** Network accounting through the protocol: bytes on the wire and the time of the last response. */
class Wire {
  bytes = 0
  requests = 0
  private inflight = new Map<string, string>()
  private lastActivity = Date.now()
  /** Every request of the current visit that reached the network, by the protocol's id. */
  readonly log = new Map<string, Request>()
  static async attach(page: Page): Promise<{ wire: Wire; cdp: CDPSession }> {
    const cdp = await page.context().newCDPSession(page)
    const wire = new Wire()
    await cdp.send('Network.enable')
    await cdp.send('Network.emulateNetworkConditions', NETWORK)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' })
    // Requests that went to the network (an answer from the HTTP cache is not counted).
    const cached = new Set<string>()
    cdp.on('Network.requestServedFromCache', (event) => {
      cached.add(event.requestId)
    })
    cdp.on('Network.responseReceived', (event) => {
      const { fromDiskCache, fromPrefetchCache, fromServiceWorker, serviceWorkerResponseSource } = event.response
      // The app shell's kept files (its worker's caches, or Chromium's static route to them) are not
      // the network either.
      const kept =
        (fromServiceWorker === true && serviceWorkerResponseSource !== 'network') ||
        event.response.serviceWorkerRouterInfo?.actualSourceType === 'cache'
      if (kept) cached.add(event.requestId)
      if (!cached.has(event.requestId) && !fromDiskCache && !fromPrefetchCache) wire.requests += 1
      else wire.log.delete(event.requestId)
      const entry = wire.log.get(event.requestId)
      if (entry) entry.firstByte = event.timestamp
    })
    cdp.on('Network.requestWillBeSent', (event) => {
      // A live page's listener stays open: the network is idle around it and its channel's short
      // POSTs (under the protocol's throttling, one in ~30 visits never reported an end, though the
      // server answered it: the bench then waited its 20 s).
      if (!isListenChannel(event.request.url)) wire.inflight.set(event.requestId, event.request.url)
      wire.lastActivity = Date.now()
      if (!event.request.url.startsWith('data:'))
        wire.log.set(event.requestId, {
          url: event.request.url,
          method: event.request.method,
          start: event.timestamp,
          bytes: 0,
        })
    })
    cdp.on('Network.loadingFinished', (event) => {
      wire.inflight.delete(event.requestId)
      if (!cached.has(event.requestId)) wire.bytes += event.encodedDataLength
      wire.lastActivity = Date.now()
      const entry = wire.log.get(event.requestId)
      if (entry) Object.assign(entry, { end: event.timestamp, bytes: event.encodedDataLength })
    })
    cdp.on('Network.loadingFailed', (event) => {
      wire.inflight.delete(event.requestId)
      wire.lastActivity = Date.now()
    })
    return { wire, cdp }
  }
  /**
   * Resolves when no request has been in flight for IDLE_MS (or after IDLE_GIVE_UP_MS, naming what
   * is still open); returns the last network activity's Date.now().
   */
  /** Starts counting afresh (a second visit in the same context). */
  reset(): void {
    this.bytes = 0
    this.requests = 0
    this.log.clear()
    // What the page before left unfinished ended with it (about:blank in between).
    this.inflight.clear()
  }
  /**
   * The visit's requests in order of their start, in ms from `origin` (the protocol's timestamp of the
   * navigation or the submit; default: the first request), with the moment the page became usable.
   */
  printWaterfall(title: string, usableMs: number, origin?: number): void {
    const entries = [...this.log.values()].sort((a, b) => a.start - b.start)
    const zero = origin ?? entries[0]?.start ?? 0
    const ms = (at: number | undefined) =>
      at === undefined ? '     -' : String(Math.round((at - zero) * 1000)).padStart(6)
    console.log(`  waterfall: ${title} (usable at ${Math.round(usableMs)} ms)`)
    console.log('    start  1st-b    end      KB  request')
    for (const entry of entries) {
      const url = new URL(entry.url)
      const name = `${entry.method} ${url.port}${url.pathname}${url.search}`
        .replace(/token=[^&]+/, 'token=…')
        .slice(0, 150)
      console.log(
        `  ${ms(entry.start)} ${ms(entry.firstByte)} ${ms(entry.end)} ${(entry.bytes / 1024).toFixed(1).padStart(7)}  ${name}`,
      )
    }
  }
  async idle(): Promise<number> {
    const started = Date.now()
    for (;;) {
      const quiet = Date.now() - this.lastActivity
      if (this.inflight.size === 0 && quiet >= IDLE_MS) return this.lastActivity
      if (Date.now() - started > IDLE_GIVE_UP_MS) {
        console.log(`  (network not idle after ${IDLE_GIVE_UP_MS} ms: ${[...this.inflight.values()].join(', ')})`)
        return this.lastActivity
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
}

/**
 * Waits in the page for `condition` and returns the page's clock (ms since its navigation) then; a
 * page that never gets there (60 s) is described and thrown as a failed run, which the step counts.
 */
async function readyAt(page: Page, condition: Condition): Promise<number> {
  try {
    const handle = await page.waitForFunction(
      (c: Condition) =>
        (c.path === undefined || location.pathname === c.path) &&
        document.querySelectorAll(c.selector).length >= (c.count ?? 1) &&
        document.querySelector('[aria-busy="true"], .route-loading') === null
          ? performance.now()
          : false,
      condition,
      { polling: 'raf', timeout: 60_000 },
    )
    return (await handle.jsonValue()) as number
  } catch (error) {
    const text = await page
      .locator('body')
      .textContent()
      .catch(() => '')
    throw new FailedRun(
      `${page.url()} not usable (${condition.selector}): ${(text ?? '').replace(/\s+/g, ' ').slice(0, 160)}`,
      {
        cause: error,
      },
    )
  }
}

class FailedRun extends Error {}

async function newPage(browser: Browser, baseURL: string, viewport = TABLET, storageState?: StorageState) {
  const context = await browser.newContext({
    baseURL,
    viewport,
    locale: 'da-DK',
    timezoneId: 'Europe/Copenhagen',
    ...(viewport === PHONE ? { isMobile: true, hasTouch: true } : { hasTouch: true }),
    ...(storageState ? { storageState } : {}),
  })
  const page = await context.newPage()
  const { wire, cdp } = await Wire.attach(page)
  return { context, page, wire, cdp }
}

/**
 * The page's main thread at work so far, in ms: the protocol's "TaskDuration" on the thread's own
 * clock, so the time another process had the core is not in it (the CPU throttling is: a returning
 * /daily's 1.0 s of work against its 1.3 s to usable). Its difference across a visit is the work that
 * visit made.
 */
async function mainThreadMs(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics')
  return (metrics.find((metric) => metric.name === 'TaskDuration')?.value ?? 0) * 1000
}

/** The main thread's work since `before` (a mainThreadMs reading); a navigation that moved the page to a new renderer process starts its count afresh. */
async function mainThreadSince(cdp: CDPSession, before: number): Promise<number> {
  const now = await mainThreadMs(cdp)
  return now >= before ? now - before : now
}

/** Starts the CPU profiler (sampling every 0.1 ms); keepProfile stops it. */
async function startProfile(cdp: CDPSession): Promise<void> {
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 })
  await cdp.send('Profiler.start')
}

/** Stops the profiler, writes the profile and prints its largest self times. */
async function keepProfile(cdp: CDPSession, name: string, usableMs: number): Promise<void> {
  const { profile } = await cdp.send('Profiler.stop')
  mkdirSync(PROFILES, { recursive: true })
  const file = join(PROFILES, `${name.replace(/[^\w]+/g, '-').replace(/^-|-$/g, '')}.cpuprofile`)
  writeFileSync(file, JSON.stringify(profile))
  const times = selfTimeByScript(profile)
  const total = times.reduce((sum, [, ms]) => sum + ms, 0)
  console.log(`  profile: ${name} (usable at ${Math.round(usableMs)} ms; ${Math.round(total)} ms sampled) → ${file}`)
  for (const [where, ms] of times.slice(0, 12)) console.log(`    ${String(Math.round(ms)).padStart(6)} ms  ${where}`)
}

/** Signs in (unthrottled) once and keeps the cookies, local storage and Auth's IndexedDB. */
async function signedInState(browser: Browser, baseURL: string, email: string, password: string, landing: RegExp) {
  const context = await browser.newContext({ baseURL, locale: 'da-DK', timezoneId: 'Europe/Copenhagen' })
  const page = await context.newPage()
  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Adgangskode').fill(password)
  await page.getByRole('button', { name: 'Log ind' }).click()
  await page.waitForURL(landing)
  await settled(page)
  const state = await context.storageState({ indexedDB: true })
  await context.close()
  return state
}

type Visits = { cold: Sample; cached: Sample; returning: Sample }
/** How long the bench waits for the app shell's worker (registered 3 s after the page's load). */
const SHELL_GIVE_UP_MS = 30_000

/** Resolves once the app shell's worker is active (its build's files kept); a page that never gets one fails the run. */
async function appShellInstalled(page: Page): Promise<void> {
  const active = await page.evaluate(
    (giveUp) =>
      Promise.race([
        navigator.serviceWorker.ready.then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), giveUp)),
      ]),
    SHELL_GIVE_UP_MS,
  )
  if (!active) throw new FailedRun(`${page.url()}: no app shell worker after ${SHELL_GIVE_UP_MS} ms`)
}

/**
 * A cold full load of `path`: time until the page is usable (and, with `untilIdle`, the network
 * idle). Then, once the app shell's worker is active (as it is on a tablet by the next visit: it is
 * registered 3 s after the first page's load), a second visit in the same context ("code cached": the
 * build's files from the worker's kept caches; the page's data is read again, nothing of it is kept
 * across a page load) and a third ("returning": every later visit). Chromium compiles a file kept by
 * the worker on its first load from there and writes V8's code cache then; from the next load on it
 * reads the compiled code (checked in a trace: 0 then 18 of 33 files read from the code cache).
 */
async function coldLoad(
  browser: Browser,
  baseURL: string,
  path: string,
  condition: Condition,
  options: { state?: StorageState; viewport?: typeof TABLET; untilIdle?: boolean } = {},
): Promise<Visits> {
  const { context, page, wire, cdp } = await newPage(browser, baseURL, options.viewport, options.state)
  const visit = async (profileAs?: string): Promise<Sample> => {
    wire.reset()
    if (profileAs !== undefined) await startProfile(cdp)
    const started = Date.now()
    const mainBefore = await mainThreadMs(cdp)
    await page.goto(path, { waitUntil: 'commit' })
    let ms = await readyAt(page, condition)
    const mainMs = await mainThreadSince(cdp, mainBefore)
    if (profileAs !== undefined) await keepProfile(cdp, profileAs, ms)
    const idle = await wire.idle()
    // The page's clock starts at navigation; the bench's own at the goto call, a few ms earlier.
    if (options.untilIdle) ms = Math.max(ms, idle - started)
    return { ms, bytes: wire.bytes, requests: wire.requests, mainMs }
  }
  try {
    const cold = await visit()
    if (waterfallOf !== null) wire.printWaterfall(`${waterfallOf} cold`, cold.ms)
    await appShellInstalled(page)
    const again = async (name: string, profiledAs?: string) => {
      await page.goto('about:blank')
      const sample = await visit(profiledAs)
      if (waterfallOf !== null) wire.printWaterfall(`${waterfallOf}, ${name}`, sample.ms)
      if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null)))
        throw new FailedRun(`${path}: the ${name} visit was not served by the app shell's worker`)
      return sample
    }
    const cached = await again('code cached')
    const returning = await again('returning')
    // One more returning visit under the profiler, left out of the figures (the profiler slows it).
    if (profileOf !== null) await again('returning (profiled)', `${profileOf}, returning`)
    return { cold, cached, returning }
  } finally {
    await context.close()
  }
}

/**
 * A colleague's write on a live page: the tablet (throttled, cold) opens /daily; once its listener's
 * stream is open and a second has passed, a registration is written beside it as a colleague's tablet
 * would (firebase-admin, unthrottled). Gives the time from navigation until the page listens, and from
 * the write's acknowledgement until the tablet shows it.
 */
async function liveRun(
  browser: Browser,
  baseURL: string,
  state: StorageState,
  write: (comment: string) => Promise<void>,
): Promise<{ listening: Sample; shown: Sample }> {
  const { context, page, wire } = await newPage(browser, baseURL, TABLET, state)
  try {
    const stream = page.waitForRequest((request) => isListenStream(request.url(), request.method()), {
      timeout: 60_000,
    })
    await page.goto('/daily', { waitUntil: 'commit' })
    await readyAt(page, READY.daily)
    await stream
    const listeningMs = await page.evaluate(() => performance.now())
    const listening = { ms: listeningMs, bytes: wire.bytes, requests: wire.requests }
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    const comment = `Bench ${Date.now().toString(36)}`
    await write(comment)
    const written = Date.now()
    await page.waitForFunction((text: string) => document.body.textContent?.includes(text) === true, comment, {
      polling: 'raf',
      timeout: 30_000,
    })
    return { listening, shown: { ms: Date.now() - written, bytes: 0, requests: 0 } }
  } finally {
    await context.close()
  }
}

/** /login until the form works, then sign-in → the landing page usable (the same cold context). */
async function signInRun(
  browser: Browser,
  baseURL: string,
  email: string,
  password: string,
  landing: Condition,
  viewport = TABLET,
  profileAs?: string,
): Promise<{ login: Sample; signIn: Sample }> {
  const { context, page, wire, cdp } = await newPage(browser, baseURL, viewport)
  try {
    const loginBefore = await mainThreadMs(cdp)
    await page.goto('/login', { waitUntil: 'commit' })
    const formWorks = await readyAt(page, READY.login)
    const loginMain = await mainThreadSince(cdp, loginBefore)
    // What the form needed (bytes until it works), then what is fetched ahead once it shows.
    const login = { ms: formWorks, bytes: wire.bytes, requests: wire.requests, mainMs: loginMain }
    await wire.idle()
    const navigated = Math.min(...[...wire.log.values()].map((entry) => entry.start))
    if (waterfallOf !== null) wire.printWaterfall('/login (until idle)', formWorks)
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Adgangskode').fill(password)
    await page.evaluate(() => {
      document.addEventListener(
        'submit',
        () => {
          ;(window as unknown as { __submitted: number }).__submitted = performance.now()
        },
        { capture: true, once: true },
      )
    })
    wire.reset()
    if (profileAs !== undefined) await startProfile(cdp)
    const signInBefore = await mainThreadMs(cdp)
    await page.getByRole('button', { name: 'Log ind' }).click()
    const usable = await readyAt(page, landing)
    const signInMain = await mainThreadSince(cdp, signInBefore)
    const submitted = await page.evaluate(() => (window as unknown as { __submitted: number }).__submitted)
    const signIn = { ms: usable - submitted, bytes: wire.bytes, requests: wire.requests, mainMs: signInMain }
    if (profileAs !== undefined) await keepProfile(cdp, profileAs, signIn.ms)
    await wire.idle()
    if (waterfallOf !== null)
      wire.printWaterfall('sign-in → landing (ms from the submit)', signIn.ms, navigated + submitted / 1000)
    return { login, signIn }
  } finally {
    await context.close()
  }
}

const fmtMs = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`)
const fmtKb = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString('en')} KB`

function summary(row: Row) {
  const times = row.samples.map((sample) => sample.ms)
  const bytes = row.samples.map((sample) => sample.bytes)
  const requests = row.samples.map((sample) => sample.requests)
  const main = row.samples.flatMap((sample) => (sample.mainMs === undefined ? [] : [sample.mainMs]))
  return {
    p50: percentile(times, 50),
    p90: percentile(times, 90),
    bytes: percentile(bytes, 50),
    requests: percentile(requests, 50),
    main: main.length > 0 ? percentile(main, 50) : undefined,
  }
}

const rows: Row[] = []
let failedRuns = 0
/** The step whose run is printed as a waterfall now (TABLET_BENCH_WATERFALL=1: each step's first run). */
let waterfallOf: string | null = null
/** The step whose run adds a profiled returning visit now (TABLET_BENCH_PROFILE=1: each step's first run). */
let profileOf: string | null = null
/** One run; a failed one (the page never usable) is reported and left out of the figures. */
async function attempt<T>(run: () => Promise<T>): Promise<T | null> {
  try {
    return await run()
  } catch (error) {
    if (!(error instanceof FailedRun)) throw error
    failedRuns += 1
    console.log(`  (a run failed: ${error.message})`)
    return null
  }
}
function print(row: Row) {
  const { p50, p90, bytes, requests, main } = summary(row)
  const work = main === undefined ? '' : `  main thread ${fmtMs(main).padStart(8)}`
  console.log(
    `  ${row.step.padEnd(62)} p50 ${fmtMs(p50).padStart(8)}  p90 ${fmtMs(p90).padStart(8)}  ${fmtKb(bytes).padStart(9)}  ${String(requests).padStart(3)} req${work}`,
  )
}
/** RUNS runs of a page load, each giving its cold, code-cached and returning figures (three rows). */
async function measure(step: string, run: () => Promise<Visits>) {
  if (!STEPS.test(step)) return
  const samples: Visits[] = []
  for (let index = 0; index < RUNS; index += 1) {
    waterfallOf = WATERFALL && index === 0 ? step : null
    profileOf = PROFILE && index === 0 ? step : null
    const sample = await attempt(run)
    waterfallOf = null
    profileOf = null
    if (sample !== null) samples.push(sample)
  }
  for (const row of [
    { step: `${step} cold`, samples: samples.map((sample) => sample.cold) },
    { step: `${step}, code cached`, samples: samples.map((sample) => sample.cached) },
    { step: `${step}, returning`, samples: samples.map((sample) => sample.returning) },
  ]) {
    rows.push(row)
    print(row)
  }
}

/**
 * The machine's own speed, for reading times across days: the median of 5 runs of a fixed script in
 * the bench's Chromium, unthrottled (sorting and serialising the same pseudo-random data). Every step's
 * time scales with it (the tablet's CPU is this machine's slowed 4×); the load average alone does not
 * tell a slower machine from a busy one.
 */
async function cpuReference(browser: Browser): Promise<number> {
  const page = await browser.newPage()
  try {
    const times: number[] = []
    for (let run = 0; run < 5; run += 1)
      times.push(
        await page.evaluate(() => {
          const started = performance.now()
          // No named function in here: the bench's TypeScript runner would wrap it in a helper the page lacks.
          const rows: { index: number; value: number; text: string }[] = []
          for (let index = 0, seed = 1; index < 200_000; index += 1) {
            seed = (seed * 16807) % 2147483647
            rows.push({ index, value: seed / 2147483647, text: `r${index}` })
          }
          rows.sort((a, b) => a.value - b.value)
          JSON.parse(JSON.stringify(rows))
          return performance.now() - started
        }),
      )
    return percentile(times, 50)
  } finally {
    await page.close()
  }
}

/** The figures as a Markdown table, as printed and as written to web/BENCHMARKS.md. */
function table(): string[] {
  return [
    '| step | p50 | p90 | transferred (median) | requests to the network (median) | main thread until usable (median) |',
    '|---|---|---|---|---|---|',
    ...rows.map((row) => {
      const { p50, p90, bytes, requests, main } = summary(row)
      return `| ${row.step} | ${fmtMs(p50)} | ${fmtMs(p90)} | ${fmtKb(bytes)} | ${requests} | ${main === undefined ? '' : fmtMs(main)} |`
    }),
  ]
}

/**
 * Writes the figures into web/BENCHMARKS.md between its tablet-bench markers, with the date, the
 * runs and the machine's load (the times are only comparable at a similar load).
 */
function writeFigures(server: string, cpuReferenceMs: number) {
  const file = join(dirname(fileURLToPath(import.meta.url)), '..', 'BENCHMARKS.md')
  const [start, end] = ['<!-- tablet-bench:start -->', '<!-- tablet-bench:end -->']
  const text = readFileSync(file, 'utf8')
  const from = text.indexOf(start)
  const to = text.indexOf(end)
  if (from < 0 || to < from) return console.log(`(web/BENCHMARKS.md has no ${start} … ${end}: figures not written)`)
  const lines = [
    start,
    `Written by tablet-bench.ts on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: ${RUNS} runs per step, ` +
      `${server}, load average ${loadavg()
        .map((load) => load.toFixed(1))
        .join(
          ' / ',
        )} on ${availableParallelism()} cores, CPU reference ${Math.round(cpuReferenceMs)} ms${failedRuns > 0 ? `; ${failedRuns} failed run(s) left out` : ''}.`,
    '',
    ...table(),
  ]
  writeFileSync(file, `${text.slice(0, from)}${lines.join('\n')}\n${text.slice(to)}`)
  console.log('figures written to web/BENCHMARKS.md')
}

console.log('starting a throwaway stack (build, demo seed) …')
// TABLET_BENCH_SKIP_BUILD=1 serves web/dist as it is (e.g. a build of other sources, for "before").
const stack = await startTestStack({ serveWeb: true, seed: true, build: process.env.TABLET_BENCH_SKIP_BUILD !== '1' })
let browser: Browser | undefined
try {
  const baseURL = stack.urls.app as string
  if (LARGE) await writeBenchLocation(stack)
  browser = await launchBenchChromium([
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
  ])
  const b = browser
  console.log(
    `\ntablet profile: 768×1024, 10/5 Mbit/s, 40 ms RTT, CPU ${CPU_SLOWDOWN}× slower; cold cache; ${RUNS} runs per step (${stack.webServerKind})`,
  )
  const cpuReferenceMs = await cpuReference(b)
  console.log(
    `CPU reference: ${Math.round(cpuReferenceMs)} ms (a fixed script in Chromium, unthrottled; lower is faster)`,
  )
  const employee = await signedInState(b, baseURL, 'medarbejder@demo.dk', DEMO_PASSWORD, /\/daily$/)
  const admin = await signedInState(b, baseURL, 'admin@demo.dk', DEMO_PASSWORD, /\/daily$/)
  const borger = await signedInState(b, baseURL, 'borger01@demo.dk', DEMO_PASSWORD, /\/me$/)

  const signIns: { login: Sample; signIn: Sample }[] = []
  const signInSteps = ['/login until the form works', 'sign-in → landing page (/daily) usable']
  // TABLET_BENCH_PROFILE=1: one profiled sign-in first, kept out of the figures (the profiler slows it).
  if (PROFILE && signInSteps.some((step) => STEPS.test(step)))
    await attempt(() => signInRun(b, baseURL, 'medarbejder@demo.dk', DEMO_PASSWORD, READY.daily, TABLET, 'sign-in'))
  for (let index = 0; signInSteps.some((step) => STEPS.test(step)) && index < RUNS; index += 1) {
    waterfallOf = WATERFALL && index === 0 ? 'sign-in' : null
    const run = await attempt(() => signInRun(b, baseURL, 'medarbejder@demo.dk', DEMO_PASSWORD, READY.daily))
    waterfallOf = null
    if (run !== null) signIns.push(run)
  }
  for (const [step, key] of [
    ['/login until the form works', 'login'],
    ['sign-in → landing page (/daily) usable', 'signIn'],
  ] as const) {
    if (!STEPS.test(step)) continue
    const row = { step, samples: signIns.map((run) => run[key]) }
    rows.push(row)
    print(row)
  }
  const demo = { state: employee }
  await measure('/login', () => coldLoad(b, baseURL, '/login', READY.login))
  await measure('/daily', () => coldLoad(b, baseURL, '/daily', READY.daily, demo))
  await measure('/notes', () => coldLoad(b, baseURL, '/notes', READY.notes, demo))
  for (const days of [30, 90])
    await measure(`/statistics ${days} days, charts drawn + network idle`, () =>
      coldLoad(b, baseURL, `/statistics?period=${days}`, READY.statistics, { ...demo, untilIdle: true }),
    )
  const liveSteps = ['live /daily: listening, from navigation', "live /daily: a colleague's registration shown"]
  if (liveSteps.some((step) => STEPS.test(step))) {
    // A colleague registers demo-borger01 (at medarbejder's location) today, beside the tablet.
    for (const [key, value] of Object.entries(stack.env)) if (value !== undefined) process.env[key] = value
    const db = initializeFirestore(initializeApp({ projectId: stack.env.FIREBASE_PROJECT_ID as string }, 'live'), {
      preferRest: true,
    })
    db.settings({
      auth: { getRequestHeaders: async () => ({}), fetch: (url: string, init: RequestInit) => fetch(url, init) },
    } as never)
    const locationId = String((await db.doc('persons/demo-borger01').get()).get('locationId'))
    const write = async (comment: string) => {
      await db.collection('persons/demo-borger01/registrations').add({
        answerId: 'bench',
        text: 'Godt',
        value: 3,
        entity: 'location',
        comment,
        day: today,
        createdAt: new Date().toISOString(),
        createdBy: 'bench-colleague',
        createdByName: 'Kollega Bench',
        personId: 'demo-borger01',
        locationId,
      })
    }
    const runs: { listening: Sample; shown: Sample }[] = []
    for (let index = 0; index < RUNS; index += 1) {
      const run = await attempt(() => liveRun(b, baseURL, employee, write))
      if (run !== null) runs.push(run)
    }
    for (const [step, key] of [
      [liveSteps[0], 'listening'],
      [liveSteps[1], 'shown'],
    ] as const) {
      const row = { step: step as string, samples: runs.map((run) => run[key]) }
      rows.push(row)
      print(row)
    }
  }
  await measure('/admin (admin)', () => coldLoad(b, baseURL, '/admin', READY.admin, { state: admin }))
  await measure("a person's page /person/{id}/daily", () =>
    coldLoad(b, baseURL, '/person/demo-borger01/daily', READY.person, demo),
  )
  await measure('phone 390×844: Min dag (/me) as the borger', () =>
    coldLoad(b, baseURL, '/me', READY.me, { state: borger, viewport: PHONE }),
  )

  if (LARGE) {
    console.log('\nthe benchmark location: 60 persons × 90 days (bench-location.ts)')
    const large = {
      state: await signedInState(b, baseURL, BENCH_ACCOUNT.email, BENCH_ACCOUNT.password, /\/daily$/),
    }
    await measure('60 persons: /daily', () => coldLoad(b, baseURL, '/daily', READY.daily, large))
    await measure('60 persons: /notes', () => coldLoad(b, baseURL, '/notes', READY.notes, large))
    for (const days of [30, 90])
      await measure(`60 persons: /statistics ${days} days, charts + idle`, () =>
        coldLoad(b, baseURL, `/statistics?period=${days}`, READY.statistics, { ...large, untilIdle: true }),
      )
  }

  console.log(`\n${table().join('\n')}`)
  if (failedRuns > 0) console.log(`\n${failedRuns} run(s) failed and are left out (see above)`)
  if (process.env.TABLET_BENCH_WRITE !== '0') writeFigures(String(stack.webServerKind), cpuReferenceMs)
} finally {
  await browser?.close()
  await stack.stop()
}
