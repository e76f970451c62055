// `make bench` (issue 29 point 3): a shift change. N staff sign in at once through emulator-lite's
// Auth (real signed ID tokens), open Dagsoversigt (the daily page's three queries, and the persons'
// pictures once per session), then loop: think 0.5–1.5 s, open the register dialog (the person's and
// the location's answer options), write a registration, refetch the day's registrations, think, and
// reload the day. emulator-lite runs as its own process (the CLI, on disk: WAL, synchronous=FULL,
// the repo's rules), seeded with the demo world, as `make start` runs it. Prints figures; asserts nothing.
//
// Run: npx tsx infra/emulator-lite/bench/shift-bench.ts
//   SHIFT_BENCH_SECONDS=60       measured seconds per N (default 20; `make bench` uses the default)
//   SHIFT_BENCH_STAFF=20,50,100  the shift sizes
//   SHIFT_BENCH_CPU_PROF=DIR     run emulator-lite under `node --cpu-prof` and write its profiles to DIR
//   SHIFT_BENCH_BASELINE=DIR     also run another checkout's emulator-lite (an earlier commit, with
//                                its node_modules), in turns with this one at each N: a shared machine's
//                                load then falls on both alike
//   SHIFT_BENCH_PAGE_VIEWS_PER_DAY=750   the day the log's size per day is figured for (see below)
import { type ChildProcess, spawn } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { ACCESS_CLASSIFIER_MODULE } from '@bosted/domain/access-classifier'
import { PERSON_OBJECTS_ROOT } from '@bosted/domain/paths'
import Database from 'better-sqlite3'

const REPO = new URL('../../../', import.meta.url).pathname
const PROJECT = 'demo-shift-bench'
const BUCKET = `${PROJECT}.appspot.com`
const SECONDS = Number(process.env.SHIFT_BENCH_SECONDS ?? 20)
const SIZES = (process.env.SHIFT_BENCH_STAFF ?? '20,50,100').split(',').map(Number)
const CPU_PROF = process.env.SHIFT_BENCH_CPU_PROF
const BASELINE = process.env.SHIFT_BENCH_BASELINE
const STAFF_COUNT = Math.max(...SIZES)
const PASSWORD = 'vagtskifte-1234'
/**
 * A day at the demo's scale for the log's size per day: the seed's 35 persons in three locations,
 * about 30 staff shifts a day (three shifts of three to four staff per location), each opening
 * Dagsoversigt and registering about 25 times: 750 page views. An assumption, stated so an operator
 * can scale the figure (it grows with page views and with the persons a location has).
 */
const PAGE_VIEWS_PER_DAY = Number(process.env.SHIFT_BENCH_PAGE_VIEWS_PER_DAY ?? 750)

type Emulator = { process: ChildProcess; firestore: string; storage: string; auth: string; admin: string }

/**
 * Starts the CLI as `make start` does (on disk, the repo's rules), on free ports; resolves on its
 * ready line. `root` is the checkout whose emulator-lite runs (this one, or the baseline).
 */
async function startEmulator(dataDir: string, profileName?: string, root = REPO): Promise<Emulator> {
  const node = [
    '--import',
    'tsx',
    ...(CPU_PROF
      ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`, `--cpu-prof-name=${profileName ?? 'shift'}.cpuprofile`]
      : []),
  ]
  const child = spawn(
    process.execPath,
    [
      ...node,
      join(root, 'infra/emulator-lite/src/cli.ts'),
      ...['--host', '127.0.0.1', '--firestore-port', '0', '--storage-port', '0', '--auth-port', '0'],
      ...['--admin-port', '0', '--project', PROJECT, '--data', dataDir],
      ...['--firestore-rules', join(REPO, 'firestore.rules'), '--storage-rules', join(REPO, 'storage.rules')],
      ...['--token-downloads-need-rules', PERSON_OBJECTS_ROOT],
      // As the stack starts it: the domain says which paths are a person's data for the access log.
      ...['--access-classifier', ACCESS_CLASSIFIER_MODULE],
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  )
  return new Promise((resolve, reject) => {
    let out = ''
    child.on('exit', (code) => reject(new Error(`emulator-lite exited (${code}) before it was ready: ${out}`)))
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const ready = /emulator-lite ready firestore=(\S+) storage=(\S+) auth=(\S+) admin=(\S+)/.exec(out)
      if (ready) {
        child.removeAllListeners('exit')
        const [, firestore, storage, auth, admin] = ready as unknown as string[]
        resolve({ process: child, firestore, storage, auth, admin } as Emulator)
      }
    })
  })
}

/**
 * CPU seconds (user + system) the emulator-lite process has used so far, from /proc (Linux), or null.
 * Unlike latencies it hardly moves with what else the machine runs.
 */
function cpuSeconds(emulator: Emulator): number | null {
  try {
    const stat = readFileSync(`/proc/${emulator.process.pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // utime and stime are fields 14 and 15 of stat (12 and 13 after the command), in clock ticks (100/s).
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return null
  }
}

/**
 * Counts the emulator-lite process's fsync/fdatasync calls with `perf stat` (kernel tracepoints, no
 * slowdown) where perf can; `stop()` gives the count, or null without perf or the permission.
 */
function countFsyncs(emulator: Emulator): { stop(): Promise<number | null> } {
  const events = 'syscalls:sys_enter_fsync,syscalls:sys_enter_fdatasync'
  let perf: ChildProcess
  try {
    perf = spawn('perf', ['stat', '-x,', '-e', events, '-p', String(emulator.process.pid)], {
      stdio: ['ignore', 'ignore', 'pipe'],
    })
  } catch {
    return { stop: async () => null }
  }
  let out = ''
  perf.stderr?.on('data', (chunk: Buffer) => {
    out += chunk.toString()
  })
  const exited = new Promise<void>((resolve) => {
    perf.on('exit', () => resolve())
    perf.on('error', () => resolve())
  })
  return {
    async stop() {
      perf.kill('SIGINT')
      await exited
      const counts = out
        .split('\n')
        .filter((line) => line.includes('syscalls:sys_enter_f'))
        .map((line) => Number(line.split(',')[0]))
      return counts.length === 2 && counts.every(Number.isFinite) ? counts.reduce((a, b) => a + b, 0) : null
    },
  }
}

function stopEmulator(emulator: Emulator): Promise<void> {
  return new Promise((resolve) => {
    emulator.process.on('exit', () => resolve())
    emulator.process.kill('SIGTERM')
  })
}

/** The demo world (the seed) plus STAFF_COUNT employees spread over its three locations. */
async function prepareTemplate(dir: string): Promise<void> {
  const emulator = await startEmulator(dir, 'seed')
  try {
    const admin = emulator.admin.replace('http://', '')
    Object.assign(process.env, {
      FIREBASE_PROJECT_ID: PROJECT,
      FIRESTORE_EMULATOR_HOST: admin,
      FIREBASE_AUTH_EMULATOR_HOST: admin,
      FIREBASE_STORAGE_EMULATOR_HOST: admin,
      STORAGE_PUBLIC_HOST: emulator.storage.replace('http://', ''),
    })
    const { seed } = await import('@bosted/seed/seed-project')
    const { readSeedEnv } = await import('@bosted/seed/env')
    const { connectFirebase } = await import('@bosted/seed/lib/firebase')
    const { mapLimit } = await import('@bosted/seed/lib/concurrency')
    const env = readSeedEnv()
    const seeded = await seed({ ...env, projectId: PROJECT, bucket: BUCKET })
    const clients = connectFirebase({ projectId: PROJECT, bucket: BUCKET, emulators: env.emulators })
    const locations = ['solsikken', 'egebakken', 'fjordhuset']
    const started = Date.now()
    await mapLimit(
      Array.from({ length: STAFF_COUNT }, (_, i) => i),
      8,
      async (i) => {
        const uid = staffUid(i)
        await clients.auth.createUser({ uid, email: staffEmail(i), password: PASSWORD, displayName: `Ansat ${i}` })
        await clients.auth.setCustomUserClaims(uid, { admin: false, userRole: 'employee' })
        await clients.db.doc(`users/${uid}`).set({
          id: uid,
          firstName: 'Ansat',
          lastName: String(i),
          createdAt: new Date().toISOString(),
          avatarUrl: null,
          contact: { email: staffEmail(i), phone: null },
          jobRole: 'Social- og sundhedsassistent',
          locations: [locations[i % locations.length]],
          userRole: 'employee',
          settings: { disabled: false },
          locale: 'da',
        })
      },
    )
    await clients.close()
    console.log(
      `seeded the demo world in ${seeded.ms} ms and ${STAFF_COUNT} staff accounts in ${Date.now() - started} ms`,
    )
  } finally {
    await stopEmulator(emulator)
  }
}

const staffUid = (i: number) => `bench-staff-${i}`
const staffEmail = (i: number) => `ansat${i}@vagtskifte.dk`

type Category = 'sign-in' | 'daily queries' | 'registrations (collection group)' | 'pictures' | 'dialog' | 'write'
class Figures {
  /** Per category: when each request started and how long it took (ms). */
  readonly samples = new Map<Category, { at: number; ms: number }[]>()
  errors = new Map<string, number>()
  iterations = 0
  /** When the last staff member had signed in and seen the first page: the shift change's burst is over. */
  burstEnd = 0
  add(category: Category, at: number, ms: number): void {
    const list = this.samples.get(category) ?? []
    if (list.length === 0) this.samples.set(category, list)
    list.push({ at, ms })
  }
}

const DOCS = `projects/${PROJECT}/databases/(default)/documents`
type Value = Record<string, unknown>
type Doc = { name: string; fields: Record<string, Value> }

/** One staff member's browser: its ID token and the requests Dagsoversigt makes. */
class Staff {
  private token = ''
  private person: { id: string; includePlaceAnswers: boolean }[] = []
  constructor(
    private readonly emulator: Emulator,
    private readonly index: number,
    private readonly location: string,
    private readonly figures: Figures,
  ) {}

  private async timed<T>(category: Category, request: () => Promise<Response>, read: (r: Response) => Promise<T>) {
    const start = performance.now()
    let response: Response
    let body: T
    try {
      response = await request()
      body = await read(response)
    } catch (error) {
      this.fail(`${category}: ${(error as Error).message}`)
      return null
    }
    const ms = performance.now() - start
    this.figures.add(category, start, ms)
    if (!response.ok) {
      this.fail(`${category}: HTTP ${response.status}`)
      return null
    }
    return body
  }

  private fail(key: string): void {
    this.figures.errors.set(key, (this.figures.errors.get(key) ?? 0) + 1)
  }

  async signIn(): Promise<boolean> {
    const url = `${this.emulator.auth}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=bench-api-key`
    const body = await this.timed(
      'sign-in',
      () =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: staffEmail(this.index), password: PASSWORD, returnSecureToken: true }),
        }),
      (r) => r.json() as Promise<{ idToken?: string }>,
    )
    if (!body?.idToken) return false
    this.token = body.idToken
    return true
  }

  private runQuery(parent: string, structuredQuery: Value, category: Category) {
    return this.timed(
      category,
      () =>
        fetch(`${this.emulator.firestore}/v1/${DOCS}${parent}:runQuery`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${this.token}` },
          body: JSON.stringify({ structuredQuery }),
        }),
      (r) => r.json() as Promise<{ document?: Doc }[]>,
    )
  }

  private dayQuery(collectionId: string, day: string, category: Category) {
    const equal = (fieldPath: string, value: string) => ({
      fieldFilter: { field: { fieldPath }, op: 'EQUAL', value: { stringValue: value } },
    })
    return this.runQuery(
      '',
      {
        from: [{ collectionId, allDescendants: true }],
        where: { compositeFilter: { op: 'AND', filters: [equal('locationId', this.location), equal('day', day)] } },
      },
      category,
    )
  }

  /** Dagsoversigt: the location's persons, the day's registrations (a collection group) and notes. */
  async dailyPage(day: string, first: boolean): Promise<void> {
    const [persons] = await Promise.all([
      this.runQuery(
        '',
        {
          from: [{ collectionId: 'persons' }],
          where: {
            fieldFilter: { field: { fieldPath: 'locationId' }, op: 'EQUAL', value: { stringValue: this.location } },
          },
        },
        'daily queries',
      ),
      this.dayQuery('registrations', day, 'registrations (collection group)'),
      this.dayQuery('notes', day, 'daily queries'),
    ])
    if (persons === null) return
    this.person = persons.flatMap(({ document }) => {
      if (!document) return []
      const settings = document.fields.settings?.mapValue as { fields?: Record<string, Value> } | undefined
      if (settings?.fields?.disabled?.booleanValue === true) return []
      const id = document.name.split('/').pop() as string
      return [{ id, includePlaceAnswers: settings?.fields?.includePlaceAnswers?.booleanValue === true }]
    })
    // The pictures are downloaded once per session (the web's image cache), with the reader's identity.
    if (first)
      await Promise.all(
        this.person.map(({ id }) =>
          this.timed(
            'pictures',
            () =>
              fetch(
                `${this.emulator.storage}/v0/b/${BUCKET}/o/${encodeURIComponent(`persons/${id}/avatar.svg`)}?alt=media`,
                {
                  headers: { authorization: `Firebase ${this.token}` },
                },
              ),
            (r) => r.arrayBuffer(),
          ),
        ),
      )
  }

  /** The register dialog's options, the write (addDoc), and the day's registrations again. */
  async register(day: string): Promise<void> {
    const person = this.person[Math.floor(Math.random() * this.person.length)]
    if (!person) return
    const [own, place] = await Promise.all([
      this.runQuery(`/persons/${person.id}`, { from: [{ collectionId: 'answers' }] }, 'dialog'),
      person.includePlaceAnswers
        ? this.runQuery(`/locations/${this.location}`, { from: [{ collectionId: 'answers' }] }, 'dialog')
        : Promise.resolve([]),
    ])
    const answer = [...(own ?? []), ...(place ?? [])].find((element) => element.document)?.document
    if (!answer) return
    const id = `r${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`
    const fields: Record<string, Value> = {
      answerId: { stringValue: answer.name.split('/').pop() },
      text: answer.fields.text ?? { stringValue: 'Godt' },
      value: answer.fields.value ?? { integerValue: '3' },
      entity: answer.fields.entity ?? { stringValue: 'person' },
      day: { stringValue: day },
      createdAt: { stringValue: new Date().toISOString() },
      createdBy: { stringValue: staffUid(this.index) },
      createdByName: { stringValue: `Ansat ${this.index}` },
      personId: { stringValue: person.id },
      locationId: { stringValue: this.location },
    }
    await this.timed(
      'write',
      () =>
        fetch(`${this.emulator.firestore}/v1/${DOCS}:commit`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${this.token}` },
          body: JSON.stringify({
            writes: [
              {
                update: { name: `${DOCS}/persons/${person.id}/registrations/${id}`, fields },
                currentDocument: { exists: false },
              },
            ],
          }),
        }),
      (r) => r.arrayBuffer(),
    )
    await this.dayQuery('registrations', day, 'registrations (collection group)')
  }
}

const think = () => new Promise((resolve) => setTimeout(resolve, 500 + Math.random() * 1000))
/** Staff look at today or one of the last 13 days (catching up), so each day's registrations stay realistic. */
function someDay(): string {
  const day = new Date(Date.now() - Math.floor(Math.random() * 14) * 86_400_000)
  return day.toLocaleDateString('sv-SE', { timeZone: 'Europe/Copenhagen' })
}

type LogSize = { entries: number; bytes: number }
/** The access log's entries and on-disk bytes (table and indexes), wherever its table lives. */
function logSize(dataDir: string): LogSize {
  for (const file of ['access-log.sqlite', 'emulator-lite.sqlite']) {
    const path = join(dataDir, file)
    if (!existsSync(path)) continue
    const db = new Database(path, { readonly: true })
    try {
      const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'access_log'").get()
      if (!table) continue
      const entries = (db.prepare('SELECT COUNT(*) AS n FROM access_log').get() as { n: number }).n
      const bytes = (
        db
          .prepare(
            "SELECT COALESCE(SUM(pgsize), 0) AS bytes FROM dbstat WHERE name = 'access_log' OR name LIKE 'access_log_%'",
          )
          .get() as { bytes: number }
      ).bytes
      return { entries, bytes }
    } finally {
      db.close()
    }
  }
  return { entries: 0, bytes: 0 }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)] ?? 0
const ms = (value: number) => (value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(1)} ms`)
const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`

async function shift(template: string, size: number, root = REPO): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), `shift-${size}-`))
  cpSync(template, dir, { recursive: true })
  const emulator = await startEmulator(dir, `shift-${size}${root === REPO ? '' : '-baseline'}`, root)
  const figures = new Figures()
  const load = loadavg()[0] as number
  const cpuAtStart = cpuSeconds(emulator)
  let cpu: number | null = null
  const fsyncCounter = countFsyncs(emulator)
  let fsyncs: number | null = null
  const started = performance.now()
  const deadline = started + SECONDS * 1000
  const locations = ['solsikken', 'egebakken', 'fjordhuset']
  try {
    await Promise.all(
      Array.from({ length: size }, async (_, i) => {
        const staff = new Staff(emulator, i, locations[i % locations.length] as string, figures)
        if (!(await staff.signIn())) return
        let first = true
        while (performance.now() < deadline) {
          const day = someDay()
          await staff.dailyPage(day, first)
          if (first) figures.burstEnd = Math.max(figures.burstEnd, performance.now())
          first = false
          await think()
          if (performance.now() >= deadline) break
          await staff.register(day)
          figures.iterations += 1
          await think()
        }
      }),
    )
    fsyncs = await fsyncCounter.stop()
    const cpuAtEnd = cpuSeconds(emulator)
    if (cpuAtStart !== null && cpuAtEnd !== null) cpu = cpuAtEnd - cpuAtStart
  } finally {
    await stopEmulator(emulator)
  }
  const elapsed = (performance.now() - started) / 1000
  const log = logSize(dir)
  rmSync(dir, { recursive: true, force: true })

  const which = BASELINE ? (root === REPO ? ' — this checkout' : ` — baseline ${root}`) : ''
  console.log(`\nN = ${size} staff, ${elapsed.toFixed(0)} s (load average at the start ${load.toFixed(1)})${which}`)
  console.log(
    `  iterations/s: ${(figures.iterations / elapsed).toFixed(1)} (${figures.iterations} page views with a registration)`,
  )
  if (fsyncs !== null)
    console.log(
      `  fsyncs by emulator-lite (perf): ${fsyncs.toLocaleString('en')}, ${(fsyncs / Math.max(1, figures.iterations)).toFixed(1)} per page view (sign-ins and the first page's pictures included)`,
    )
  if (cpu !== null)
    console.log(
      `  emulator-lite CPU: ${cpu.toFixed(1)} s (${((cpu / elapsed) * 100).toFixed(0)} % of a core), ${((cpu * 1000) / Math.max(1, figures.iterations)).toFixed(1)} ms per page view (sign-ins included)`,
    )
  const table = (title: string, from: number) => {
    console.log(`  ${title}`)
    let slowest = 0
    for (const [category, samples] of figures.samples) {
      const sorted = samples
        .filter((sample) => sample.at >= from)
        .map((sample) => sample.ms)
        .sort((a, b) => a - b)
      if (sorted.length === 0) continue
      const max = sorted[sorted.length - 1] ?? 0
      if (category !== 'sign-in') slowest = Math.max(slowest, max)
      console.log(
        `    ${category.padEnd(34)} n ${String(sorted.length).padStart(6)}  p50 ${ms(percentile(sorted, 0.5)).padStart(9)}  p95 ${ms(percentile(sorted, 0.95)).padStart(9)}  p99 ${ms(percentile(sorted, 0.99)).padStart(9)}  max ${ms(max).padStart(9)}`,
      )
    }
    console.log(`    slowest request (sign-in aside): ${ms(slowest)}`)
  }
  table('whole run, the shift change included:', started)
  table(
    `after the burst (every staff member signed in and on the first page, ${((figures.burstEnd - started) / 1000).toFixed(1)} s in):`,
    figures.burstEnd,
  )
  for (const [error, count] of figures.errors) console.log(`  errors: ${count} × ${error}`)
  // The pictures are read once per session, not per page view: their entries (one each) are left
  // out of the per-page-view figures, which a short run with many sign-ins would otherwise inflate.
  const views = Math.max(1, figures.iterations)
  const pictures = figures.samples.get('pictures')?.length ?? 0
  const perEntry = log.entries === 0 ? 0 : log.bytes / log.entries
  const entriesPerView = Math.max(0, log.entries - pictures) / views
  const bytesPerView = entriesPerView * perEntry
  console.log(
    `  access log: ${log.entries.toLocaleString('en')} entries, ${mb(log.bytes)} (${Math.round(perEntry)} bytes an entry, indexes included) — ${entriesPerView.toFixed(1)} entries and ${(bytesPerView / 1024).toFixed(1)} KB per page view (+1 entry per picture per session)`,
  )
  const perDay = bytesPerView * PAGE_VIEWS_PER_DAY
  console.log(
    `  log size per 1,000 page views: ${mb(bytesPerView * 1000)}; at the demo's scale (${PAGE_VIEWS_PER_DAY.toLocaleString('en')} page views a day): ${mb(perDay)} per day, ${((perDay * 365) / 1_073_741_824).toFixed(1)} GB per year kept`,
  )
}

const template = mkdtempSync(join(tmpdir(), 'shift-template-'))
try {
  console.log(
    `shift change: emulator-lite CLI on disk (WAL, synchronous=FULL, firestore.rules), ${SECONDS} s per size, think time 0.5–1.5 s`,
  )
  await prepareTemplate(template)
  for (const size of SIZES) {
    if (BASELINE) await shift(template, size, BASELINE)
    await shift(template, size)
  }
} finally {
  rmSync(template, { recursive: true, force: true })
}
