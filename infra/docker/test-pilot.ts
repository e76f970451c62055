// `make test-pilot`: the pilot's promises (issue 31), run against docker-compose.pilot.yml on podman,
// from nothing, on a free port bound to 127.0.0.1:
//   - up from nothing with a self-signed certificate; time to healthy; only PILOT_PORT is published,
//     and real connections from the host to every port the Compose files name are refused, on
//     loopback and every other address of the host (PILOT_PORT too, off loopback: PILOT_BIND);
//   - https with the generated certificate (trusted by this test and nothing else); TLS 1.0 and 1.1
//     refused, 1.2 and 1.3 accepted; plain http on the same port redirects and serves no app; HSTS,
//     the CSP naming only the origin, Secure cookies;
//   - nobody signs up; make pilot-admin's administrator signs in through the origin (Auth, Firestore,
//     the api's session cookie);
//   - in Chromium: the admin creates a location, a superuser and a person; the person answers on
//     "Min dag"; the admin sees it in Statistik and the person's Adgangslog; the admin gives the
//     superuser a temporary password: her other session ends, she must change it first, then is in;
//   - through the origin with the web's calls: a user changes their own password (other sessions
//     end, the new one works, the old one not); a temporary password forces a change at sign-in;
//   - a reset link by mail to a test SMTP server on the Compose network (pilot/test.compose.yml,
//     this test's only) works once;
//   - through the origin, `Bearer owner`, `Firebase owner`, a Google access token, the admin secret,
//     an unsigned (forged) ID token and every management path fail, and change nothing;
//   - a backup while a writer keeps writing; more writes; restore: exactly the backed-up state
//     (rows and a SHA-256 of every table of every SQLite file), the access log verifies, sign-in works;
//     a truncated archive is refused and changes nothing;
//   - down + up keeps the data and the session;
//   - the daily backup fires on its own (PILOT_BACKUP_TIME a moment ahead) and keeps PILOT_BACKUP_KEEP;
//   - figures: time to healthy, backup and restore time and size.
// Everything it made is removed at the end (images too unless --keep-images).
import { createHash, randomBytes, X509Certificate } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { type AddressInfo, connect } from 'node:net'
import { networkInterfaces, tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { createServer as createTlsServer, type TLSSocket, connect as tlsConnect } from 'node:tls'
import { fileURLToPath } from 'node:url'
import type { Locator, Page } from 'playwright'
import { interpolate, parseComposeYaml, parseEnvFile } from './check/compose.ts'
import {
  baseImages,
  Checks,
  freePorts,
  log,
  Phases,
  type PodmanCompose,
  PUBLISHED_PORTS,
  ROOT,
  removeLeftovers,
  run,
  seconds,
} from './compose.ts'
import type { Manifest } from './pilot/ops.ts'
import { selfSignedServerCertificate } from './pilot/tls.ts'
import {
  PILOT_FILE,
  type Pilot,
  pilotEngine,
  pilotEnvironment,
  restoreBackup,
  stageCertificate,
  takeBackup,
} from './pilot.ts'

const PROJECT_ID = 'bosted-pilot'
/** The smallest valid PNG, as a picture to upload. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
)
const API_KEY = 'pilot-api-key'

type Reply = { status: number; headers: IncomingHttpHeaders; body: string; tls?: string | null }
type RequestOptions = { method?: string; headers?: Record<string, string>; body?: unknown }

/** One HTTPS request to the pilot, trusting only its certificate. */
function https(
  base: string,
  ca: string,
  path: string,
  { method = 'GET', headers = {}, body }: RequestOptions = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, base)
    const req = httpsRequest(
      url,
      { method, headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) }, ca, timeout: 20_000 },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk) => (text += chunk))
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: text,
            tls: (req.socket as TLSSocket | null)?.getProtocol?.(),
          }),
        )
      },
    )
    req.once('timeout', () => req.destroy(new Error('timeout')))
    req.once('error', reject)
    req.end(body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body))
  })
}

function plainHttp(port: string, path: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, timeout: 10_000 }, (response) => {
      let text = ''
      response.on('data', (chunk) => (text += chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }))
    })
    req.once('error', reject)
    req.end()
  })
}

/**
 * A call to the api through the origin, tried again (up to 5 times, 2 s apart) while it answers 5xx:
 * on a busy machine the api can be healthy yet briefly unable to reach Auth right after a start, and
 * the web app tries again too. Data checks never depend on this: only availability does.
 */
async function apiCall(base: string, ca: string, path: string, options: RequestOptions): Promise<Reply> {
  let response = await https(base, ca, path, options)
  for (let attempt = 2; attempt <= 5 && response.status >= 500; attempt++) {
    log(`${path} answered ${response.status} (${response.body.slice(0, 160)}); again in 2 s`)
    await sleep(2000)
    response = await https(base, ca, path, options)
  }
  return response
}

// biome-ignore lint/suspicious/noExplicitAny: the bodies of many endpoints, read field by field in checks
const json = (response: Reply): Record<string, any> => {
  try {
    return JSON.parse(response.body)
  } catch {
    return {}
  }
}

/** A node script run in the ops container, against emulator-lite's admin listener (emulators:9098). */
const adminScript = (body: string) => `
const secret = require('node:fs').readFileSync('/data/emulator-lite/admin-secret', 'utf8').trim()
const base = 'http://emulators:9098/v1/projects/${PROJECT_ID}/databases/(default)/documents'
const headers = { authorization: 'Bearer ' + secret, 'content-type': 'application/json' }
const commit = (writes) => fetch(base + ':commit', { method: 'POST', headers, body: JSON.stringify({ writes }) }).then(async (r) => { if (!r.ok) throw new Error(r.status + ' ' + await r.text()) })
const doc = (path, fields) => ({ update: { name: 'projects/${PROJECT_ID}/databases/(default)/documents/' + path, fields } })
;(async () => { ${body} })().catch((e) => { console.error(e.message); process.exit(1) })
`

/**
 * The first admin signs in in Chromium (Debian's, through Playwright) and creates a location: the web
 * reaches Auth, Firestore and the api on the one origin, over TLS. Chromium trusts exactly the
 * pilot's key (--ignore-certificate-errors-spki-list); nothing is fetched from any other origin.
 * Resolves whether the api's health check answered the page 503 at some point (reported, not failed).
 */
export async function browserJourney(
  checks: Checks,
  { base, ca, email, password }: { base: string; ca: string; email: string; password: string },
): Promise<boolean> {
  const { CHROMIUM_PATH, launchChromium } = await import('@bosted/stack/chromium')
  if (!existsSync(CHROMIUM_PATH)) {
    checks.ok(false, `Chromium at ${CHROMIUM_PATH} (make install puts Debian's there)`)
    return false
  }
  const spki = createHash('sha256')
    .update(new X509Certificate(ca).publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64')
  // Without the window's own web UI, as the e2e suite: each of the journey's pages is a new window.
  const browser = await launchChromium([
    `--ignore-certificate-errors-spki-list=${spki}`,
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
  ])
  let page: Page | undefined
  let healthRefused = false
  try {
    page = await browser.newPage({ baseURL: base })
    const elsewhere: string[] = []
    /** Each failed request: its status, address and the start of its answer (the api's error code, or nginx's page). */
    const failed: Promise<string>[] = []
    page.on('request', (request) => {
      if (!request.url().startsWith(base) && !/^(data|blob):/.test(request.url())) elsewhere.push(request.url())
    })
    // The storage-full banner polls /api/health. Its 503 `unavailable` (a check slower than 2 s on a
    // busy machine) changes nothing on screen: it is reported with the api's reasons, not failed.
    // `degraded` would show staff the full-disk banner, and nothing is full here: that fails.
    const healthAnswers: Promise<string>[] = []
    page.on('response', (response) => {
      if (response.status() < 400) return
      if (response.status() === 503 && new URL(response.url()).pathname === '/api/health') {
        healthAnswers.push(
          response.json().then(
            (body: { status?: string; error?: { code?: string } }) => body.status ?? body.error?.code ?? 'unknown',
            () => 'unknown',
          ),
        )
        return
      }
      // Read with a bound: the check must not wait on a body that never ends.
      const said = Promise.race([
        response.text().then(
          (text) => text.replace(/\s+/g, ' ').slice(0, 160),
          () => 'no answer read',
        ),
        sleep(5_000).then(() => 'no answer within 5 s'),
      ])
      // The api's request id, which its log line of the failure names.
      const id = response.headers()['x-request-id']
      failed.push(said.then((text) => `${response.status()} ${response.url()}${id ? ` [${id}]` : ''} (${text})`))
    })
    await page.goto('/login')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Adgangskode').fill(password)
    await page.getByRole('button', { name: 'Log ind' }).click()
    const signedIn = await page
      .waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 30_000 })
      .then(() => true)
      .catch(() => false)
    checks.ok(signedIn, `in Chromium, the administrator signs in over HTTPS (now at ${new URL(page.url()).pathname})`)
    await page.goto('/admin')
    const name = `Pilotstedet ${Date.now() % 100_000}`
    await page.getByLabel('Navn på den nye lokation').fill(name)
    await page.getByRole('button', { name: 'Opret lokation' }).click()
    const created = await page
      .getByText('Lokationen blev oprettet')
      .waitFor({ timeout: 30_000 })
      .then(() => true)
      .catch(() => false)
    checks.ok(created, 'in Chromium, the administrator creates a location (Firestore and the api through the origin)')
    await page.reload()
    const listed = await page
      .getByRole('table')
      .getByRole('link', { name })
      .waitFor({ timeout: 30_000 })
      .then(() => true)
      .catch(() => false)
    checks.ok(listed, 'the new location is listed after a reload (read back over TLS)')
    // The page, its module files and its reads share one HTTP/2 connection (cache hits name no protocol).
    const protocols = await page.evaluate(() =>
      performance
        .getEntries()
        .map((entry) => (entry as { nextHopProtocol?: string }).nextHopProtocol ?? '')
        .filter((protocol) => protocol !== ''),
    )
    const overH2 = protocols.filter((protocol) => protocol === 'h2').length
    checks.ok(
      overH2 > 0 && overH2 === protocols.length,
      `the page and its requests came over HTTP/2 (${overH2} of ${protocols.length} with a protocol: ${[...new Set(protocols)].join(', ')})`,
    )

    // A superuser with a picture (an upload to Storage through the origin), who then signs in.
    const seen = (locator: Locator) =>
      locator
        .waitFor({ timeout: 30_000 })
        .then(() => true)
        .catch(() => false)
    // With one location there is no switcher: the only one is the active one.
    const switcher = page.getByRole('combobox', { name: 'Lokation' })
    if ((await switcher.count()) > 0) await switcher.selectOption({ label: name })
    await page.goto('/create/user/general')
    const lastName = `Pilot${Date.now() % 100_000}`
    const colleague = {
      name: `Sara ${lastName}`,
      email: `${lastName.toLowerCase()}@kommune.dk`,
      password: 'Pilot-adgangskode-2026',
    }
    await page.getByLabel('Fornavn').fill('Sara')
    await page.getByLabel('Efternavn').fill(lastName)
    await page.getByLabel('Email').fill(colleague.email)
    await page.getByLabel('Adgangskode').fill(colleague.password)
    await page.getByRole('radio', { name: 'Superbruger' }).check()
    await page.getByLabel('Vælg billede').setInputFiles({ name: 'sara.png', mimeType: 'image/png', buffer: PNG })
    await page.getByRole('button', { name: 'Opret bruger' }).click()
    checks.ok(
      await seen(page.getByText('Brugeren blev tilføjet korrekt')),
      'in Chromium, the administrator creates a superuser',
    )
    const picture = page.getByRole('row', { name: new RegExp(colleague.name) }).locator('img')
    const pictured = await seen(picture)
    const src = pictured ? await picture.getAttribute('src') : null
    checks.ok(
      pictured && src?.startsWith(`${base}/v0/b/`),
      "the superuser's picture was uploaded to Storage and is shown from the origin",
      src ?? 'no picture',
    )
    const other = await browser.newPage({ baseURL: base })
    await other.goto('/login')
    await other.getByLabel('Email').fill(colleague.email)
    await other.getByLabel('Adgangskode').fill(colleague.password)
    await other.getByRole('button', { name: 'Log ind' }).click()
    const colleagueIn = await other
      .waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 30_000 })
      .then(() => true)
      .catch(() => false)
    checks.ok(colleagueIn, 'the new superuser signs in over HTTPS')

    // A person (borger) with a password the pilot's policy accepts, who signs in and answers on "Min dag";
    // the administrator then sees the answer in Statistik and the person's writing in the Adgangslog.
    const personLast = `Borger${Date.now() % 100_000}`
    const person = {
      name: `Astrid ${personLast}`,
      email: `${personLast.toLowerCase()}@kommune.dk`,
      password: 'Solsikke-morgen-2026',
    }
    await page.goto('/create/person/general')
    await page.getByLabel('Fornavn').fill('Astrid')
    await page.getByLabel('Efternavn').fill(personLast)
    await page.getByLabel('Email').fill(person.email)
    await page.getByLabel('Adgangskode').fill(person.password)
    await page.getByRole('button', { name: 'Næste' }).click()
    await page.getByRole('button', { name: 'Tilføj svarmulighed' }).click()
    await page.getByLabel('Tekst').fill('Glad for dagen')
    await page.getByLabel('Værdi').fill('5')
    await page.getByRole('button', { name: 'Næste' }).click()
    await page.getByLabel('Alle funktioner').check()
    await page.getByRole('button', { name: 'Opret borger' }).click()
    checks.ok(
      await seen(page.getByText('Borgeren blev tilføjet korrekt')),
      'in Chromium, the administrator creates a person (borger) with a password the pilot policy accepts',
    )
    const personPage = await browser.newPage({ baseURL: base })
    await personPage.goto('/login')
    await personPage.getByLabel('Email').fill(person.email)
    await personPage.getByLabel('Adgangskode').fill(person.password)
    await personPage.getByRole('button', { name: 'Log ind' }).click()
    checks.ok(
      await seen(personPage.getByRole('heading', { level: 1, name: 'Min dag' })),
      'the person signs in over HTTPS and lands on Min dag',
    )
    // The administrator's Dagsoversigt is open while the person answers: it shows the answer by itself
    // (the listener's stream through the origin, issue 36).
    await page.goto('/daily')
    const personRow = page
      .getByRole('list', { name: 'Borgere' })
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: person.name }) })
    checks.ok(await seen(personRow), "the administrator's Dagsoversigt lists the new person")
    const question = personPage.getByRole('region', { name: 'Hvordan har du det i dag?' })
    await question
      .getByRole('radio', { name: /Glad for dagen/ })
      .check({ timeout: 30_000 })
      .catch(() => {})
    await question
      .getByRole('button', { name: 'Gem mit svar' })
      .click({ timeout: 30_000 })
      .catch(() => {})
    checks.ok(
      await seen(question.getByText(/^Du har svaret: Glad for dagen/)),
      'the person registers an answer on Min dag',
    )
    const heardAt = Date.now()
    const heard = await personRow
      .getByText('Registreret', { exact: true })
      .waitFor({ timeout: 5_000 })
      .then(() => true)
      .catch(() => false)
    checks.ok(
      heard,
      "the administrator's open Dagsoversigt shows the person's answer without a reload (a listener over HTTPS)",
      heard ? `${Date.now() - heardAt} ms after the answer was shown as saved` : 'not within 5 s',
    )
    await page.goto('/statistics')
    const registrations = page
      .locator('.figures__item')
      .filter({ has: page.getByRole('term').filter({ hasText: 'Registreringer' }) })
      .locator('.figures__value')
    const counted = await seen(registrations)
    const figure = counted ? ((await registrations.textContent()) ?? '').trim() : ''
    checks.ok(
      figure === '1' && (await seen(page.getByRole('table').getByRole('link', { name: person.name }))),
      "the administrator sees the person's answer in Statistik (1 registration, the person listed)",
      `Registreringer: ${figure || 'not shown'}`,
    )
    await page.goto('/admin')
    await page.getByLabel('Søg blandt alle borgere (navn eller email)').fill(personLast)
    await page
      .getByRole('link', { name: person.name })
      .click({ timeout: 30_000 })
      .catch(() => {})
    await page
      .getByRole('navigation', { name: 'Faner' })
      .getByRole('link', { name: 'Adgangslog' })
      .click({ timeout: 30_000 })
      .catch(() => {})
    const entries = page.getByRole('list', { name: 'Poster i adgangsloggen' }).getByRole('listitem')
    checks.ok(
      await seen(
        entries
          .filter({ hasText: new RegExp(`^${person.name} \\(borger\\) (oprettede|ændrede) 1 registrering`) })
          .first(),
      ),
      "the person's own registration is in their Adgangslog, named as theirs",
      (await entries.allTextContents().catch(() => [])).slice(0, 6).join(' | '),
    )

    // A temporary password for the superuser, set in Indstillinger › Brugere as the web does it: her
    // session in the other browser ends; signing in with it leads to Skift adgangskode before
    // anything else, and once she has chosen her own she is in.
    await page.goto('/settings/users')
    await page
      .getByRole('button', { name: `Rediger ${colleague.name}` })
      .click({ timeout: 30_000 })
      .catch(() => {})
    const dialog = page.getByRole('dialog')
    const temporary = 'Midlertidig-kode-for-Sara-26'
    await dialog
      .getByLabel('Midlertidig adgangskode')
      .fill(temporary, { timeout: 30_000 })
      .catch(() => {})
    await dialog
      .getByRole('button', { name: 'Sæt midlertidig adgangskode' })
      .click({ timeout: 30_000 })
      .catch(() => {})
    checks.ok(
      await seen(page.getByText('Den midlertidige adgangskode er sat')),
      'in Chromium, the administrator gives the superuser a temporary password (Indstillinger › Brugere)',
    )
    await page.keyboard.press('Escape')
    await other.goto('/notes')
    checks.ok(
      await other
        .waitForURL((url) => url.pathname === '/login', { timeout: 30_000 })
        .then(() => true)
        .catch(() => false),
      "the superuser's session in the other browser has ended (back at /login)",
      new URL(other.url()).pathname,
    )
    await other.getByLabel('Email').fill(colleague.email)
    await other.getByLabel('Adgangskode').fill(temporary)
    await other.getByRole('button', { name: 'Log ind' }).click()
    checks.ok(
      await seen(
        other.getByText(
          'Du er logget ind med en midlertidig adgangskode. Vælg din egen adgangskode, før du fortsætter.',
        ),
      ),
      'signing in with the temporary password leads to Skift adgangskode first',
      new URL(other.url()).pathname,
    )
    const own = 'Saras-egen-kode-fra-nu-26'
    await other.getByLabel('Nuværende adgangskode').fill(temporary)
    await other.getByLabel('Ny adgangskode', { exact: true }).fill(own)
    await other.getByLabel('Gentag ny adgangskode').fill(own)
    await other.getByRole('button', { name: 'Skift adgangskode' }).click()
    checks.ok(
      await seen(other.getByRole('heading', { level: 1, name: 'Dagsoversigt' })),
      'with her own password chosen the superuser is in (Dagsoversigt)',
      new URL(other.url()).pathname,
    )

    checks.ok(elsewhere.length === 0, 'the browser fetched nothing from any other origin', elsewhere.join(' '))
    checks.ok(failed.length === 0, 'no request failed', (await Promise.all(failed)).join(' '))
    // Every poll's body read, the last one's too, before it is judged.
    const healthRefusals = await Promise.all(healthAnswers)
    checks.ok(
      !healthRefusals.includes('degraded'),
      "the banner's health poll never said the backend stores nothing",
      healthRefusals.join(' '),
    )
    healthRefused = healthRefusals.length > 0
    if (healthRefused)
      log(`/api/health answered 503 to the banner's poll: ${healthRefusals.join(', ')} (the api's log says why)`)
  } catch (error) {
    // A step that cannot go on (a field never shown, a navigation timed out) fails a check that says
    // where the browser was and what its page said, not only a stack in the middle of the log.
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]
    const shown =
      (await page
        ?.locator('main')
        .textContent({ timeout: 2_000 })
        .catch(() => null)) ?? ''
    const at =
      page === undefined ? 'no page' : `${new URL(page.url()).pathname}: ${shown.replace(/\s+/g, ' ').slice(0, 160)}`
    checks.ok(false, 'the browser journey runs to its end', `${message} (at ${at})`)
  } finally {
    await browser.close()
  }
  return healthRefused
}

/** The cookies a response sets, as a Cookie header (name=value; …). */
const cookiesOf = (response: Reply): string =>
  (response.headers['set-cookie'] ?? []).map((cookie) => cookie.split(';')[0]).join('; ')

/** The claims of an ID token (not verified: the pilot did that; this reads what it says). */
const claimsOf = (idToken: unknown): Record<string, unknown> => {
  try {
    return JSON.parse(Buffer.from(String(idToken).split('.')[1] ?? '', 'base64url').toString('utf8'))
  } catch {
    return {}
  }
}

/** Tokens and sessions carry whole seconds: what must end was issued in an earlier second. */
const nextSecond = () => sleep(1_100 - (Date.now() % 1_000))

/**
 * Every port the project's Compose files name (the services' `expose` and `ports`, both sides, and
 * the published defaults of .env.example): the ports a backend service listens on inside the Compose
 * network, and those the development stack publishes.
 */
export function composePorts(): number[] {
  const env = parseEnvFile(readFileSync(join(ROOT, '.env.example'), 'utf8')).values
  const ports = new Set<number>(Object.values(PUBLISHED_PORTS))
  const add = (value: unknown) => {
    const port = Number(String(value).split('/')[0])
    if (Number.isInteger(port) && port > 0 && port < 65_536) ports.add(port)
  }
  const files = ['docker-compose.yml', 'docker-compose.lite.yml', PILOT_FILE, 'infra/docker/pilot/test.compose.yml']
  for (const file of files) {
    const model = interpolate(parseComposeYaml(readFileSync(join(ROOT, file), 'utf8')), env)
    for (const service of Object.values(model.services ?? {})) {
      for (const entry of service.expose ?? []) add(entry)
      for (const entry of service.ports ?? []) {
        if (typeof entry === 'string') for (const part of entry.split(':').slice(-2)) add(part)
        else {
          add(entry.published)
          add(entry.target)
        }
      }
    }
  }
  return [...ports].sort((a, b) => a - b)
}

/** This host's addresses a browser elsewhere could use: loopback, and every non-loopback one. */
function hostAddresses(): string[] {
  const addresses = ['127.0.0.1', '::1']
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) {
      // Link-local IPv6 needs a scope id and is not how anyone reaches a server.
      if (!entry.internal && !entry.address.startsWith('fe80:')) addresses.push(entry.address)
    }
  }
  return addresses
}

/** What a TCP connection from this host to address:port meets: 'open', or the error (ECONNREFUSED, …). */
function connectOutcome(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port })
    socket.setTimeout(3000, () => {
      socket.destroy()
      resolve('timeout')
    })
    socket.once('connect', () => {
      socket.destroy()
      resolve('open')
    })
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
  })
}

type Outcomes = Map<string, string>
const endpoint = (host: string, port: number) => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`)

/** Every Compose port and PILOT_PORT on every address of this host, tried once each. */
async function connectOutcomes(pilotPort: number): Promise<Outcomes> {
  const outcomes: Outcomes = new Map()
  for (const host of hostAddresses()) {
    for (const port of [...composePorts(), pilotPort])
      outcomes.set(endpoint(host, port), await connectOutcome(host, port))
  }
  return outcomes
}

/**
 * Real connections from this host, not only the port bindings: every port of every service (Auth,
 * Firestore, Storage, the admin listener, the api, nginx's own, the hub, logging and UI of the
 * development stack, the test SMTP server) refuses on 127.0.0.1, ::1 and every non-loopback address;
 * PILOT_PORT answers on 127.0.0.1 only (PILOT_BIND=127.0.0.1 here). A port something else on this
 * host already answered before the pilot started is reported, not held against the pilot.
 */
async function probePorts(checks: Checks, { before, pilotPort }: { before: Outcomes; pilotPort: number }) {
  const after = await connectOutcomes(pilotPort)
  const pilotEndpoint = endpoint('127.0.0.1', pilotPort)
  const othersBefore = [...before].filter(([key, outcome]) => outcome === 'open' && key !== pilotEndpoint)
  if (othersBefore.length > 0) {
    log(`already answering before the pilot started (not the pilot's): ${othersBefore.map(([key]) => key).join(' ')}`)
  }
  const opened = [...after].filter(
    ([key, outcome]) => key !== pilotEndpoint && outcome === 'open' && before.get(key) !== 'open',
  )
  const tried = [...after].filter(([key]) => key !== pilotEndpoint && before.get(key) !== 'open')
  const kinds = [...new Set(tried.map(([, outcome]) => outcome))].join(', ')
  const hosts = hostAddresses()
  checks.ok(
    tried.length > 0 && opened.length === 0,
    `every other service port refuses a connection from the host (${composePorts().length} ports × ${hosts.length} addresses: ${hosts.join(' ')}; ${kinds})`,
    opened.map(([key]) => key).join(' '),
  )
  checks.ok(
    after.get(pilotEndpoint) === 'open',
    `PILOT_PORT answers on 127.0.0.1:${pilotPort}`,
    after.get(pilotEndpoint),
  )
  const elsewhere = hosts
    .filter((host) => host !== '127.0.0.1')
    .map((host) => [endpoint(host, pilotPort), after.get(endpoint(host, pilotPort))] as const)
  checks.ok(
    elsewhere.every(([, outcome]) => outcome !== 'open'),
    `PILOT_BIND=127.0.0.1 holds: PILOT_PORT refuses on ${elsewhere.map(([key]) => key).join(' ')}`,
    elsewhere.map(([key, outcome]) => `${key} ${outcome}`).join(' '),
  )
}

type Version = 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3'

/** One TLS handshake offering exactly `version`; the protocol agreed on, or the error. */
function handshake(port: number, ca: string, version: Version): Promise<{ protocol?: string | null; error?: string }> {
  return new Promise((resolve) => {
    const socket = tlsConnect({
      host: '127.0.0.1',
      port,
      servername: 'localhost',
      ca,
      minVersion: version,
      maxVersion: version,
      // OpenSSL's default security level keeps a client from offering TLS 1.0/1.1 at all: this one
      // offers them, so a refusal can only come from the server.
      ciphers: 'DEFAULT:@SECLEVEL=0',
    })
    socket.setTimeout(10_000, () => {
      socket.destroy()
      resolve({ error: 'timeout' })
    })
    socket.once('secureConnect', () => {
      resolve({ protocol: socket.getProtocol() })
      socket.destroy()
    })
    socket.once('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }))
  })
}

/**
 * TLS 1.0 and 1.1 are refused and 1.2 and 1.3 accepted on PILOT_PORT. First the probe proves it can
 * make a TLS 1.0/1.1 handshake at all (against a throwaway server here that allows them).
 */
async function probeTlsVersions(checks: Checks, { port, ca }: { port: number; ca: string }) {
  const { cert, key } = selfSignedServerCertificate('localhost')
  const lenient = createTlsServer({ cert, key, minVersion: 'TLSv1', ciphers: 'DEFAULT:@SECLEVEL=0' }, (socket) =>
    socket.end(),
  )
  await new Promise<void>((listening) => lenient.listen(0, '127.0.0.1', listening))
  const lenientPort = (lenient.address() as AddressInfo).port
  const control = [await handshake(lenientPort, cert, 'TLSv1'), await handshake(lenientPort, cert, 'TLSv1.1')]
  await new Promise((closed) => lenient.close(closed))
  checks.ok(
    control[0]?.protocol === 'TLSv1' && control[1]?.protocol === 'TLSv1.1',
    'the TLS probe can make TLS 1.0 and 1.1 handshakes (against a server of its own that allows them)',
    JSON.stringify(control),
  )
  for (const version of ['TLSv1', 'TLSv1.1'] as const) {
    const result = await handshake(port, ca, version)
    checks.ok(
      result.error !== undefined && result.error !== 'ERR_SSL_NO_PROTOCOLS_AVAILABLE' && result.error !== 'timeout',
      `${version === 'TLSv1' ? 'TLS 1.0' : 'TLS 1.1'} is refused by the pilot (${result.error ?? result.protocol})`,
    )
  }
  for (const version of ['TLSv1.2', 'TLSv1.3'] as const) {
    const result = await handshake(port, ca, version)
    checks.ok(
      result.protocol === version,
      `${version.replace('TLSv', 'TLS ')} is accepted (${result.protocol ?? result.error})`,
    )
  }
}

type Account = { email: string; password: string }

/**
 * Passwords that belong to their owner, through the origin with the web's own calls (Auth's REST
 * endpoints and the api's routes under /api), as issue 31 point 4 asks:
 *   - a user changes their own password, re-entering the current one: their other devices' session
 *     cookies and refresh tokens stop working, the new password signs in and the old one does not;
 *   - an administrator gives someone a temporary password: that person's sessions end, the
 *     temporary one signs in with `mustChangePassword`, the api refuses everything but reading their
 *     own account until they chose their own, and afterwards they get in with it.
 */
async function passwordJourneys(
  checks: Checks,
  { base, ca, adminCookie, adminUid }: { base: string; ca: string; adminCookie: string; adminUid: string },
) {
  const signInWith = async ({ email, password }: Account) =>
    json(
      await https(base, ca, `/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=${API_KEY}`, {
        method: 'POST',
        body: { email, password, returnSecureToken: true },
      }),
    )
  const signsIn = async (account: Account) => typeof (await signInWith(account)).idToken === 'string'
  /** A device: signed in to Auth (its refresh token) and to the api (its session cookie). */
  const device = async (account: Account) => {
    const auth = await signInWith(account)
    const login = await apiCall(base, ca, '/api/auth/login', {
      method: 'POST',
      headers: { origin: base },
      body: { idToken: auth.idToken },
    })
    return { refreshToken: String(auth.refreshToken), cookie: cookiesOf(login), status: login.status }
  }
  const sessionValid = async (cookie: string) =>
    json(await apiCall(base, ca, '/api/auth/validate', { method: 'POST', headers: { origin: base, cookie }, body: {} }))
      .isValid === true
  const refreshWorks = async (refreshToken: string) =>
    (
      await https(base, ca, `/securetoken.googleapis.com/v1/token?key=${API_KEY}`, {
        method: 'POST',
        body: { grant_type: 'refresh_token', refresh_token: refreshToken },
      })
    ).status === 200
  const createAccount = async (account: Account, displayName: string) => {
    const created = await apiCall(base, ca, '/api/user/create', {
      method: 'POST',
      headers: { origin: base, cookie: adminCookie },
      body: { ...account, displayName },
    })
    return { status: created.status, uid: String(json(created).body?.userId ?? ''), body: created.body }
  }
  const changePassword = (cookie: string, currentPassword: string, newPassword: string) =>
    apiCall(base, ca, '/api/auth/change-password', {
      method: 'POST',
      headers: { origin: base, cookie },
      body: { currentPassword, newPassword },
    })

  // --- one's own password
  const own = { email: 'skift@kommune.dk', password: 'Foerste-kode-til-skift-26' }
  const made = await createAccount(own, 'Karen Skift')
  checks.ok(
    made.status === 200 && made.uid !== '',
    'the administrator creates an account through /api/user/create',
    made.body,
  )
  const other = await device(own)
  await nextSecond()
  const here = await device(own)
  checks.ok(other.status === 200 && here.status === 200, 'the account is signed in on two devices')
  await nextSecond()
  const wrong = await changePassword(here.cookie, 'Forkert-nuvaerende-kode', 'Helt-ny-egen-kode-2026')
  checks.ok(
    wrong.status === 400 && json(wrong).error?.fields?.currentPassword !== undefined && (await signsIn(own)),
    'a change with a wrong current password is refused (400, on the current password) and changes nothing',
    `${wrong.status} ${wrong.body.slice(0, 200)}`,
  )
  const next = { ...own, password: 'Helt-ny-egen-kode-2026' }
  const changed = await changePassword(here.cookie, own.password, next.password)
  checks.ok(
    changed.status === 200,
    'the user changes their own password, re-entering the current one',
    `${changed.status} ${changed.body.slice(0, 200)}`,
  )
  checks.ok(!(await sessionValid(other.cookie)), "the other device's session cookie no longer works")
  checks.ok(!(await refreshWorks(other.refreshToken)), "the other device's refresh token no longer works")
  checks.ok(
    await sessionValid(cookiesOf(changed)),
    'the device that changed it has a renewed, valid session',
    (changed.headers['set-cookie'] ?? []).join(' | ').slice(0, 200),
  )
  checks.ok(await signsIn(next), 'the new password signs in')
  checks.ok(!(await signsIn(own)), 'the old password no longer signs in')

  // --- a temporary password set by an administrator
  const person = { email: 'midlertidig@kommune.dk', password: 'Egen-kode-fra-start-26' }
  const target = await createAccount(person, 'Jonas Midlertidig')
  const before = await device(person)
  checks.ok(target.status === 200 && before.status === 200, 'an account the administrator manages, signed in')
  await nextSecond()
  const temporary = 'Midlertidig-kode-77-aften'
  const set = await apiCall(base, ca, `/api/user/${target.uid}/temporary-password`, {
    method: 'PUT',
    headers: { origin: base, cookie: adminCookie },
    body: { password: temporary },
  })
  checks.ok(
    set.status === 200,
    'the administrator sets a temporary password (PUT /api/user/:id/temporary-password)',
    `${set.status} ${set.body.slice(0, 200)}`,
  )
  checks.ok(
    !(await sessionValid(before.cookie)) && !(await refreshWorks(before.refreshToken)),
    "the person's sessions ended (session cookie and refresh token refused)",
  )
  checks.ok(!(await signsIn(person)), "the person's old password no longer signs in")
  const withTemporary = await signInWith({ ...person, password: temporary })
  checks.ok(
    claimsOf(withTemporary.idToken).mustChangePassword === true,
    'the temporary password signs in, and the token says it must be changed (mustChangePassword)',
    JSON.stringify(claimsOf(withTemporary.idToken)).slice(0, 300),
  )
  const forcedLogin = await apiCall(base, ca, '/api/auth/login', {
    method: 'POST',
    headers: { origin: base },
    body: { idToken: withTemporary.idToken },
  })
  const forced = cookiesOf(forcedLogin)
  const ownRecord = json(
    await apiCall(base, ca, `/api/user/getUserById?id=${target.uid}`, { headers: { origin: base, cookie: forced } }),
  )
  checks.ok(
    forcedLogin.status === 200 && ownRecord.data?.customClaims?.mustChangePassword === true,
    'the api says so too (their own account, which the web reads to send them to Skift adgangskode)',
    `${forcedLogin.status} ${JSON.stringify(ownRecord).slice(0, 200)}`,
  )
  const refused = await apiCall(base, ca, `/api/user/getUserById?id=${adminUid}`, {
    headers: { origin: base, cookie: forced },
  })
  checks.ok(
    refused.status === 403 && json(refused).error?.code === 'password_change_required',
    'until it is changed the api refuses everything else (403 password_change_required)',
    `${refused.status} ${refused.body.slice(0, 200)}`,
  )
  const chosen = { ...person, password: 'Jonas-egen-kode-efter-26' }
  const forcedChange = await changePassword(forced, temporary, chosen.password)
  checks.ok(
    forcedChange.status === 200,
    'the person changes the temporary password to their own',
    `${forcedChange.status} ${forcedChange.body.slice(0, 200)}`,
  )
  const afterwards = await signInWith(chosen)
  checks.ok(
    typeof afterwards.idToken === 'string' && claimsOf(afterwards.idToken).mustChangePassword === undefined,
    'their own password signs in, without mustChangePassword',
  )
  checks.ok(!(await signsIn({ ...person, password: temporary })), 'the temporary password no longer signs in')
  const inAfterwards = await apiCall(base, ca, `/api/user/getUserById?id=${adminUid}`, {
    headers: { origin: base, cookie: cookiesOf(forcedChange) },
  })
  checks.ok(
    json(inAfterwards).error?.code !== 'password_change_required' && (await sessionValid(cookiesOf(forcedChange))),
    'afterwards they are in: a valid session, and the api no longer asks for a change',
    `${inAfterwards.status} ${inAfterwards.body.slice(0, 200)}`,
  )
}

export async function runPilotTest(args: string[]): Promise<void> {
  const keepImages = args.includes('--keep-images') || process.env.KEEP_IMAGES === '1'
  const started = Date.now()
  const figures: [string, string][] = []
  const checks = new Checks()
  const phases = new Phases()
  const phase = phases.run.bind(phases)
  const { PILOT_PORT: port } = await freePorts().then((ports) => ({ PILOT_PORT: ports.APP_PORT }))
  const project = `bosted-pilot-test-${randomBytes(3).toString('hex')}`
  const env = pilotEnvironment({
    ...process.env,
    PILOT_PROJECT_NAME: project,
    PILOT_HOST: 'localhost',
    PILOT_PORT: port,
    PILOT_BIND: '127.0.0.1',
    PILOT_TLS_CERT: '',
    PILOT_TLS_KEY: '',
    // Reset mails go to the test SMTP server of infra/docker/pilot/test.compose.yml (test only).
    PILOT_SMTP_HOST: 'smtp-test',
    PILOT_SMTP_PORT: '2525',
    PILOT_SMTP_USER: '',
    PILOT_SMTP_PASSWORD: '',
    PILOT_SMTP_FROM: 'bosted@kommune.dk',
  })
  env.COMPOSE_FILE = `${env.COMPOSE_FILE}:infra/docker/pilot/test.compose.yml`
  const base = `https://localhost:${port}`
  const work = mkdtempSync(join(tmpdir(), 'bosted-pilot-test-'))
  let running: (Pilot & { stack: PodmanCompose }) | undefined
  /** The api's and the backend's complaints after a failure, printed last (where CI's tail shows them). */
  let complaints = ''
  /** The same, read as the browser journey failed (its containers do not live to the end). */
  let journeyComplaints = ''
  let images: string[] = []
  try {
    stageCertificate(env)
    const engine = await phase('podman setup', () => pilotEngine(env))
    const { stack } = engine
    if (!stack) {
      await engine.close()
      throw new Error('make test-pilot runs on podman (as make test-containers does)')
    }
    const pilot = { ...engine, stack }
    running = pilot
    // What an earlier, killed run left behind (containers, volumes, networks, images of bosted-pilot-test-*).
    await removeLeftovers('bosted-pilot-test-')
    await phase('base images and image builds', async () => {
      Object.assign(stack.env, await baseImages(env))
      images = await stack.build()
    })
    // What answers on this host before the pilot runs (another stack's ports are not the pilot's).
    const portsBefore = await connectOutcomes(Number(port))
    const upStarted = Date.now()
    await phase('up from nothing until healthy', () => stack.up())
    figures.push(['time from nothing to healthy (images built)', seconds(upStarted)])
    checks.ok((await stack.notReady()) === '', 'every service healthy, tls and migrate exited 0')

    // --- ports and TLS
    const containers = await stack.containers()
    const bindings = containers.flatMap((c) =>
      Object.values(c.ports ?? {})
        .flat()
        .flatMap((binding) => (binding ? [`${c.service}:${binding.HostIp}:${binding.HostPort}`] : [])),
    )
    checks.ok(
      bindings.length === 1 && bindings[0] === `web:127.0.0.1:${port}`,
      `only PILOT_PORT is published (web on 127.0.0.1:${port})`,
      bindings.join(' '),
    )
    await probePorts(checks, { before: portsBefore, pilotPort: Number(port) })
    const ca = (await stack.exec('web', ['cat', '/tls/cert.pem'], { capture: true })).stdout
    const tlsLog = await pilot.logsOf('tls')
    checks.ok(
      /SHA-256 fingerprint ([0-9A-F]{2}:){31}[0-9A-F]{2}/.test(tlsLog),
      'the self-signed certificate’s fingerprint is printed',
    )
    const index = await https(base, ca, '/')
    checks.ok(
      index.status === 200 && index.body.includes('<div id="root"'),
      'GET / over https serves the app',
      index.status,
    )
    checks.ok(/^TLSv1\.[23]$/.test(index.tls ?? ''), `TLS 1.2 or newer (${index.tls})`)
    checks.ok(
      /max-age=\d+/.test(String(index.headers['strict-transport-security'] ?? '')),
      'HSTS',
      index.headers['strict-transport-security'],
    )
    await probeTlsVersions(checks, { port: Number(port), ca })
    const csp = String(index.headers['content-security-policy'] ?? '')
    checks.ok(
      /connect-src 'self';/.test(csp) && !/http:|https:/.test(csp),
      "the CSP names only the origin ('self')",
      csp,
    )
    const plain = await plainHttp(port, '/')
    checks.ok(
      plain.status === 301 && plain.headers.location === `${base}/` && !plain.body.includes('<div id="root"'),
      'plain http on the port redirects to https and serves no app',
      `${plain.status} ${plain.headers.location}`,
    )
    const config = json(await https(base, ca, '/config.json'))
    checks.ok(
      config.emulators?.auth === base && config.emulators?.firestore === base && config.emulators?.storage === base,
      '/config.json names the origin for Auth, Firestore and Storage',
      JSON.stringify(config.emulators),
    )

    // --- nobody signs up; the first admin
    const signUp = await https(base, ca, `/identitytoolkit.googleapis.com/v1/accounts:signUp?key=${API_KEY}`, {
      method: 'POST',
      body: { email: 'self@example.dk', password: 'a-long-password-1', returnSecureToken: true },
    })
    checks.ok(
      signUp.status === 400 && /ADMIN_ONLY_OPERATION/.test(signUp.body),
      'accounts:signUp through the origin is refused',
      signUp.body,
    )
    const anonymous = await https(base, ca, `/identitytoolkit.googleapis.com/v1/accounts:signUp?key=${API_KEY}`, {
      method: 'POST',
      body: { returnSecureToken: true },
    })
    checks.ok(anonymous.status === 400, 'anonymous sign-in through the origin is refused', anonymous.body)
    const admin = await pilot.exec(
      'ops',
      ['node', '--import', 'tsx', 'seed/src/pilot-admin.ts', '--email', 'it@kommune.dk'],
      {
        capture: true,
      },
    )
    const password = /password \(shown once[^)]*\): (\S+)/.exec(admin.stdout)?.[1]
    checks.ok(
      admin.code === 0 && Boolean(password),
      'make pilot-admin creates an administrator and prints a password',
      admin.stdout + admin.stderr,
    )
    const signIn = async () =>
      json(
        await https(base, ca, `/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=${API_KEY}`, {
          method: 'POST',
          body: { email: 'it@kommune.dk', password, returnSecureToken: true },
        }),
      )
    const session = await signIn()
    checks.ok(
      typeof session.idToken === 'string',
      'the administrator signs in through the origin',
      JSON.stringify(session).slice(0, 200),
    )
    const uid = session.localId
    const docs = `/v1/projects/${PROJECT_ID}/databases/(default)/documents`
    const own = await https(base, ca, `${docs}/users/${uid}`, {
      headers: { authorization: `Bearer ${session.idToken}` },
    })
    checks.ok(own.status === 200, 'Firestore through the origin with the signed ID token', `${own.status} ${own.body}`)
    // The api may answer 503 for a moment after its start on a busy machine (it is healthy, but its
    // first calls to Auth can time out): a client tries again, and so does apiCall.
    const login = await apiCall(base, ca, '/api/auth/login', {
      method: 'POST',
      headers: { origin: base },
      body: { idToken: session.idToken },
    })
    const cookies = login.headers['set-cookie'] ?? []
    checks.ok(
      login.status === 200 && cookies.length > 0 && cookies.every((cookie) => /;\s*Secure/i.test(cookie)),
      'the api session cookies are Secure',
      `${login.status} ${login.body.slice(0, 200)} ${cookies.join(' | ')}`,
    )
    const cookieHeader = cookiesOf(login)
    const valid = json(
      await apiCall(base, ca, '/api/auth/validate', {
        method: 'POST',
        headers: { origin: base, cookie: cookieHeader },
        body: {},
      }),
    )
    checks.ok(valid.isValid === true, 'the api session is valid through the origin', JSON.stringify(valid))

    // --- the browser: Chromium over HTTPS, trusting the generated certificate (its key) and nothing else
    await phase('browser journey (Chromium over HTTPS)', async () => {
      const failedBefore = checks.failed
      const refused = await browserJourney(checks, { base, ca, email: 'it@kommune.dk', password: password ?? '' })
      // The api's and the backend's reasons, now: the restore below replaces these containers, and
      // their logs go with them (the complaints gathered at the end are the new containers').
      if (checks.failed > failedBefore || refused) {
        const said = await stack.complaints()
        log(said || 'the api and the backend logged no complaint during the browser journey')
        if (said && checks.failed > failedBefore) journeyComplaints = `during the browser journey, ${said}`
      }
    })

    // --- a password reset by mail, through the origin, to the test SMTP server on the Compose network
    await phase('a reset link by mail (test SMTP server)', async () => {
      const email = 'glemt@kommune.dk'
      const made = await pilot.exec('ops', ['node', '--import', 'tsx', 'seed/src/pilot-admin.ts', '--email', email], {
        capture: true,
      })
      const first = /password \(shown once[^)]*\): (\S+)/.exec(made.stdout)?.[1]
      checks.ok(made.code === 0 && Boolean(first), 'an account to reset', made.stdout + made.stderr)
      const asked = await apiCall(base, ca, '/api/auth/forgot-password', {
        method: 'POST',
        headers: { origin: base },
        body: { email },
      })
      checks.ok(asked.status === 200, '"Glemt adgangskode?" through the origin', `${asked.status} ${asked.body}`)
      type Mail = { from: string; to: string[]; data: string }
      let mail: Mail | undefined
      for (let waited = 0; waited < 60 && !mail; waited += 2) {
        const lines = (await pilot.logsOf('smtp-test')).split('\n')
        mail = lines
          .flatMap((line) => {
            const found = /MAIL (\{.*\})\s*$/.exec(line)?.[1]
            return found ? [JSON.parse(found) as Mail] : []
          })
          .find((m) => m.to.includes(email))
        if (!mail) await sleep(2000)
      }
      const [, body = ''] = (mail?.data ?? '').split('\r\n\r\n')
      const text = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
      const link = /https:\/\/\S+/.exec(text)?.[0] ?? ''
      const oobCode = link ? (new URL(link).searchParams.get('oobCode') ?? '') : ''
      checks.ok(
        Boolean(mail) && link.startsWith(`${base}/reset-password?`) && oobCode !== '',
        'the reset mail arrives at the test SMTP server with a link to the origin',
        mail ? text.slice(0, 300) : 'no mail within 60 s',
      )
      const page = await https(base, ca, link ? new URL(link).pathname + new URL(link).search : '/reset-password')
      checks.ok(page.status === 200 && page.body.includes('<div id="root"'), 'the link opens the app', page.status)
      const next = 'Vinter-morgen-kaffe-77'
      const reset = await apiCall(base, ca, '/api/auth/reset-password', {
        method: 'POST',
        headers: { origin: base },
        body: { oobCode, newPassword: next },
      })
      const withPassword = (password: string) =>
        https(base, ca, `/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=${API_KEY}`, {
          method: 'POST',
          body: { email, password, returnSecureToken: true },
        })
      const signedIn = json(await withPassword(next))
      checks.ok(
        reset.status === 200 && typeof signedIn.idToken === 'string',
        'the link sets a new password that signs in',
        `${reset.status} ${reset.body.slice(0, 200)}`,
      )
      checks.ok((await withPassword(first ?? '')).status === 400, 'the old password no longer signs in')
      const again = await apiCall(base, ca, '/api/auth/reset-password', {
        method: 'POST',
        headers: { origin: base },
        body: { oobCode, newPassword: 'Sommer-aften-te-2026' },
      })
      checks.ok(
        again.status >= 400 && again.status < 500 && json(await withPassword(next)).idToken,
        'the link works once: a second use is refused and changes nothing',
        `${again.status} ${again.body.slice(0, 200)}`,
      )
    })

    // --- one's own password, and a temporary one, through the origin
    await phase('passwords: changing one’s own, a temporary one (through the origin)', () =>
      passwordJourneys(checks, { base, ca, adminCookie: cookieHeader, adminUid: uid }),
    )

    // --- the edge
    const digest = async () =>
      (
        await pilot.exec('ops', ['node', 'infra/docker/pilot/ops.ts', 'digest', '/data'], { capture: true })
      ).stdout.trim()
    const documentsOf = (state: string) =>
      Object.entries(JSON.parse(state || '{}') as Record<string, { rows: number; sha256: string }>)
        .filter(([key]) => /:(documents|auth_users|objects)$/.test(key))
        .map(([key, value]) => `${key}=${value.rows}/${value.sha256}`)
        .join(' ')
    // The api's healthcheck writes health/probe: no healthchecks run while the state is compared.
    await stack.stopTicker()
    await sleep(6000)
    const before = documentsOf(await digest())
    const secret = (
      await pilot.exec('ops', ['cat', '/data/emulator-lite/admin-secret'], { capture: true })
    ).stdout.trim()
    const forged = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(
      JSON.stringify({
        sub: uid,
        user_id: uid,
        admin: true,
        userRole: 'admin',
        aud: PROJECT_ID,
        iss: `https://securetoken.google.com/${PROJECT_ID}`,
        iat: Math.floor(Date.now() / 1000),
        exp: Math.floor(Date.now() / 1000) + 3600,
      }),
    ).toString('base64url')}.`
    const attempts: [string, string, string, Record<string, string>][] = [
      ['Bearer owner: Firestore write', `${docs}:commit`, 'POST', { authorization: 'Bearer owner' }],
      ['Bearer owner: Firestore read', `${docs}/users/${uid}`, 'GET', { authorization: 'Bearer owner' }],
      ['Firebase owner: Storage', `/v0/b/${PROJECT_ID}.appspot.com/o`, 'GET', { authorization: 'Firebase owner' }],
      ['a Google access token (ya29.…)', `${docs}/users/${uid}`, 'GET', { authorization: 'Bearer ya29.a0AfH6SMB' }],
      ['the admin secret', `${docs}/users/${uid}`, 'GET', { authorization: `Bearer ${secret}` }],
      ['Firestore /emulator/…', `/emulator/v1/projects/${PROJECT_ID}/databases/(default)/documents`, 'DELETE', {}],
      ['Auth /emulator/…', `/emulator/v1/projects/${PROJECT_ID}/accounts`, 'DELETE', {}],
      ['Storage /internal/…', '/internal/export', 'POST', {}],
      ['the GCS JSON API', `/storage/v1/b/${PROJECT_ID}.appspot.com/o`, 'GET', {}],
      ['GCS uploads', `/upload/storage/v1/b/${PROJECT_ID}.appspot.com/o?name=x`, 'POST', {}],
      ["Auth's project API", `/identitytoolkit.googleapis.com/v1/projects/${PROJECT_ID}/accounts:delete`, 'POST', {}],
      ["Auth's legacy API", '/www.googleapis.com/identitytoolkit/v3/relyingparty/signupNewUser', 'POST', {}],
    ]
    for (const [what, path, method, headers] of attempts) {
      const response = await https(base, ca, path, {
        method,
        headers,
        body:
          method === 'POST'
            ? {
                writes: [{ delete: `projects/${PROJECT_ID}/databases/(default)/documents/users/${uid}` }],
                localId: uid,
              }
            : undefined,
      })
      checks.ok(
        response.status === 403,
        `through the origin, ${what} is refused (403)`,
        `${response.status} ${response.body.slice(0, 120)}`,
      )
    }
    const forgedRead = await https(base, ca, `${docs}/users/${uid}`, { headers: { authorization: `Bearer ${forged}` } })
    checks.ok(forgedRead.status !== 200, 'an unsigned (forged) ID token reads nothing', `${forgedRead.status}`)
    const forgedWrite = await https(base, ca, `${docs}:commit`, {
      method: 'POST',
      headers: { authorization: `Bearer ${forged}` },
      body: { writes: [{ delete: `projects/${PROJECT_ID}/databases/(default)/documents/users/${uid}` }] },
    })
    checks.ok(forgedWrite.status !== 200, 'an unsigned (forged) ID token writes nothing', `${forgedWrite.status}`)
    const afterRefusals = documentsOf(await digest())
    checks.ok(
      afterRefusals === before,
      'the refused requests changed no document, account or object',
      `${before} → ${afterRefusals}`,
    )

    // --- backup while writing, restore
    // The demo seed's world is 8,779 documents of about 340 bytes (3 MB of fields), 38 accounts and 41
    // images; a backup is measured at ten times its documents and bytes.
    const bulk = Number(process.env.PILOT_TEST_DOCUMENTS || 87_790)
    await phase(`${bulk} documents of about 340 bytes (the demo data ×10, what a backup is measured on)`, async () => {
      const filled = await pilot.exec(
        'ops',
        [
          'node',
          '-e',
          adminScript(`
            const text = 'x'.repeat(300)
            for (let i = 0; i < ${bulk}; i += 500) {
              const writes = []
              for (let j = i; j < Math.min(i + 500, ${bulk}); j++) writes.push(doc('pilotLoad/d' + j, { n: { integerValue: String(j) }, text: { stringValue: text } }))
              await commit(writes)
            }`),
        ],
        { capture: true, timeoutMs: 10 * 60_000 },
      )
      checks.ok(filled.code === 0, `${bulk} documents written`, filled.stderr)
    })
    const writer = pilot.exec(
      'ops',
      [
        'node',
        '-e',
        adminScript(
          "for (let i = 0; i < 400; i++) await commit([doc('pilotWriter/w' + i, { i: { integerValue: String(i) } })])",
        ),
      ],
      { capture: true, timeoutMs: 5 * 60_000 },
    )
    const backupDir = join(work, 'backups')
    const made = await phase('backup while a writer writes', () => takeBackup(pilot, backupDir))
    figures.push([
      'backup (online, while writing)',
      `${(made.ms / 1000).toFixed(1)} s in the pilot, ${(made.totalMs / 1000).toFixed(1)} s with the copy to the host`,
    ])
    figures.push([
      'backup archive',
      `${(made.bytes / 1024 / 1024).toFixed(2)} MB (${made.counts.documents} documents, ${made.counts.accounts} accounts, ${made.counts.accessLog} access-log entries)`,
    ])
    const written = await writer
    checks.ok(written.code === 0, 'the writer kept writing during the backup', written.stderr)
    const after = await pilot.exec(
      'ops',
      ['node', '-e', adminScript("await commit([doc('pilotWriter/after-backup', { late: { booleanValue: true } })])")],
      {
        capture: true,
      },
    )
    checks.ok(after.code === 0, 'more writes after the backup')
    // The archive's own state, read on the host from its parts.
    const unpacked = join(work, 'unpacked')
    mkdirSync(unpacked)
    await run('tar', ['-xzf', made.copy, '-C', unpacked])
    const manifest = JSON.parse(readFileSync(join(unpacked, 'manifest.json'), 'utf8')) as Manifest
    const raw = manifest.parts.reduce((sum, part) => sum + (part.bytes ?? 0), 0)
    figures.push([
      'the parts before compression',
      `${(raw / 1024 / 1024).toFixed(2)} MB (synthetic text compresses far better than real data)`,
    ])
    checks.ok(
      manifest.parts.every((part) => /^[0-9a-f]{64}$/.test(part.sha256 ?? '')) && manifest.schema && manifest.createdAt,
      'the manifest has the time, the schema and a SHA-256 per part',
    )
    const archived = (
      await run('node', ['infra/docker/pilot/ops.ts', 'digest', join(unpacked, 'data')], { capture: true })
    ).stdout.trim()

    const truncated = join(work, 'truncated.tar.gz')
    writeFileSync(truncated, readFileSync(made.copy))
    truncateSync(truncated, Math.floor(statSync(truncated).size / 2))
    const emulatorsBefore = (await stack.containers()).find((c) => c.service === 'emulators')
    let refusal = ''
    await restoreBackup(pilot, truncated).catch((error) => {
      refusal = error.message
    })
    const emulatorsAfter = (await stack.containers()).find((c) => c.service === 'emulators')
    checks.ok(
      /damaged or incomplete.*nothing was changed/.test(refusal),
      'a truncated archive is refused with a clear message',
      refusal,
    )
    checks.ok(
      emulatorsAfter?.status === 'running' && emulatorsAfter.id === emulatorsBefore?.id,
      'the refused restore left the pilot running as it was',
    )

    const restored = await phase('restore into the stopped backend', () =>
      restoreBackup(pilot, made.copy, { start: false }),
    )
    figures.push(['restore (check, stop, replace, audit-verify)', `${(restored.restoreMs / 1000).toFixed(1)} s`])
    const state = (
      await pilot.exec('ops', ['node', 'infra/docker/pilot/ops.ts', 'digest', '/data'], { capture: true })
    ).stdout.trim()
    const expected = JSON.parse(archived)
    const actual = JSON.parse(state)
    const differing = Object.keys({ ...expected, ...actual }).filter(
      (key) => JSON.stringify(expected[key]) !== JSON.stringify(actual[key]),
    )
    checks.ok(
      Object.keys(expected).length > 0 && differing.length === 0,
      `exactly the backed-up state came back (${Object.keys(expected).length} tables: rows and SHA-256 of every row)`,
      differing.join(' '),
    )
    checks.ok(restored.audit.code === 0, 'the restored access log verifies', restored.audit.output)
    await phase('up after the restore', () => stack.up())
    // The ops container was not restarted with the backend: its first call may fail while the
    // restarted emulators' name settles on the network; a failed call (not an answer) is tried again.
    const readLate = () =>
      pilot.exec(
        'ops',
        [
          'node',
          '-e',
          adminScript("const r = await fetch(base + '/pilotWriter/after-backup', { headers }); console.log(r.status)"),
        ],
        { capture: true },
      )
    let late = await readLate()
    for (let attempt = 2; attempt <= 5 && late.code !== 0; attempt++) {
      log(`reading pilotWriter/after-backup failed (${late.stderr.trim().slice(0, 200)}); again in 2 s`)
      await sleep(2000)
      late = await readLate()
    }
    checks.ok(
      late.stdout.trim() === '404',
      'a write made after the backup is gone after the restore',
      `${late.stdout} ${late.stderr}`,
    )
    const again = await signIn()
    checks.ok(typeof again.idToken === 'string', 'sign-in works after the restore')

    // --- restart
    const marker = `kept-${Date.now()}`
    await pilot.exec(
      'ops',
      [
        'node',
        '-e',
        adminScript(`await commit([doc('pilotChecks/restart', { marker: { stringValue: '${marker}' } })])`),
      ],
      {
        capture: true,
      },
    )
    const login2 = await apiCall(base, ca, '/api/auth/login', {
      method: 'POST',
      headers: { origin: base },
      body: { idToken: again.idToken },
    })
    const cookies2 = cookiesOf(login2)
    const before2 = json(
      await apiCall(base, ca, '/api/auth/validate', {
        method: 'POST',
        headers: { origin: base, cookie: cookies2 },
        body: {},
      }),
    )
    checks.ok(
      login2.status === 200 && before2.isValid === true,
      'a session signed in after the restore is valid',
      `${login2.status} ${login2.body.slice(0, 200)} ${JSON.stringify(before2)}`,
    )
    await phase('pilot-down + pilot (the volumes stay)', async () => {
      await stack.compose(['down', '--timeout', '30'], { timeoutMs: 3 * 60_000 })
      checks.ok((await stack.containers()).length === 0, 'pilot-down removed every container')
      await stack.up()
    })
    const read = await pilot.exec(
      'ops',
      [
        'node',
        '-e',
        adminScript(
          "const r = await fetch(base + '/pilotChecks/restart', { headers }); console.log((await r.json()).fields?.marker?.stringValue)",
        ),
      ],
      { capture: true },
    )
    checks.ok(read.stdout.trim() === marker, 'data written before pilot-down is there after make pilot', read.stdout)
    const stillValid = json(
      await apiCall(base, ca, '/api/auth/validate', {
        method: 'POST',
        headers: { origin: base, cookie: cookies2 },
        body: {},
      }),
    )
    checks.ok(
      stillValid.isValid === true,
      'a session from before pilot-down is still valid after make pilot',
      JSON.stringify(stillValid),
    )
    const refreshed = json(
      await https(base, ca, `/securetoken.googleapis.com/v1/token?key=${API_KEY}`, {
        method: 'POST',
        body: { grant_type: 'refresh_token', refresh_token: again.refreshToken },
      }),
    )
    checks.ok(typeof refreshed.id_token === 'string', "the browser's refresh token still works after the restart")

    // --- the daily backup fires on its own, and keeps PILOT_BACKUP_KEEP archives
    await phase('the daily backup fires (PILOT_BACKUP_TIME 45 s ahead, PILOT_BACKUP_KEEP=2)', async () => {
      // Three old archives beside whatever is there already (the restore keeps the state it replaced).
      const planted = ['20200101T000000Z', '20200102T000000Z', '20200103T000000Z'].map(
        (stamp) => `bosted-backup-${stamp}.tar.gz`,
      )
      await pilot.exec('ops', ['sh', '-c', planted.map((name) => `echo old > /backups/${name}`).join(' && ')], {
        capture: true,
      })
      const list = async () =>
        (await pilot.exec('ops', ['ls', '/backups'], { capture: true })).stdout
          .split('\n')
          .filter((name) => /^bosted-backup-\d{8}T\d{6}Z\.tar\.gz$/.test(name))
          .sort()
      const old = await list()
      const at = new Date(Date.now() + 45_000)
      stack.env.PILOT_BACKUP_TIME = at.toISOString().slice(11, 19)
      stack.env.PILOT_BACKUP_KEEP = '2'
      await stack.compose(['up', '--detach', '--no-deps', 'ops'], { timeoutMs: 3 * 60_000 })
      let archives: string[] = []
      const deadline = at.getTime() + 120_000
      while (Date.now() < deadline) {
        archives = await list().catch(() => [])
        if (archives.some((name) => !old.includes(name)) && archives.length <= 2) break
        await sleep(3000)
      }
      const fresh = archives.filter((name) => !old.includes(name))
      const logs = await pilot.logsOf('ops')
      checks.ok(
        old.length >= 3 && fresh.length === 1 && /ops: daily backup \/backups\/bosted-backup-/.test(logs),
        `the daily backup fired at ${stack.env.PILOT_BACKUP_TIME} UTC without being asked`,
        `${old.join(' ')} → ${archives.join(' ')} ${logs.slice(-400)}`,
      )
      checks.ok(
        archives.length === 2 && archives.includes(old.at(-1) ?? ''),
        `retention: the newest 2 of ${old.length + fresh.length} archives are kept, the older ones removed`,
        archives.join(' '),
      )
      if (fresh[0]) {
        const verified = await pilot.exec(
          'ops',
          ['node', 'infra/docker/pilot/ops.ts', 'verify', `/backups/${fresh[0]}`],
          {
            capture: true,
          },
        )
        checks.ok(verified.code === 0, 'the daily backup verifies', verified.stderr)
      }
    })

    // --- an older version meets newer data: this version's migrate refuses it, and its restore too
    await phase('an older version refuses newer data', async () => {
      const ids = ['001-location-answer-defaults', '002-care-record-locations', '999-from-the-future']
      const newer = await pilot.exec(
        'ops',
        [
          'node',
          '-e',
          adminScript(
            `await commit([doc('bosted/schema', { pilot: { booleanValue: true }, applied: { arrayValue: { values: ${JSON.stringify(ids.map((id) => ({ stringValue: id })))} } } })])`,
          ),
        ],
        { capture: true },
      )
      checks.ok(newer.code === 0, 'the data now names a migration this version does not know', newer.stderr)
      const migrate = (await stack.containers()).find((c) => c.service === 'migrate')
      await run('podman', ['start', '--attach', migrate?.id ?? 'no-migrate-container'], {
        capture: true,
        timeoutMs: 3 * 60_000,
      })
      const after = (await stack.containers()).find((c) => c.service === 'migrate')
      const logs = await pilot.logsOf('migrate')
      checks.ok(
        after !== undefined && after.exitCode !== 0 && /newer Bosted \(migrations 999-from-the-future/.test(logs),
        'migrate refuses data a newer version migrated, with a clear message',
        `exit ${after?.exitCode}: ${logs.slice(-300)}`,
      )
      const newerBackup = await takeBackup(pilot, join(work, 'backups'))
      const verified = await pilot.exec('ops', ['node', 'infra/docker/pilot/ops.ts', 'verify', newerBackup.archive], {
        capture: true,
      })
      checks.ok(
        verified.code !== 0 && /newer Bosted/.test(verified.stderr),
        'a backup of newer data is refused by this version',
        verified.stderr,
      )
    })
    if (checks.failed > 0) throw new Error(`${checks.failed} check(s) failed`)
  } catch (error) {
    phases.failure ??= error
    console.error(`\npilot-test: FAILED: ${error instanceof Error ? error.stack : String(error)}`)
    await running?.stack.logs(80).catch(() => {})
  } finally {
    if (running) {
      const { stack } = running
      if (phases.failure !== undefined || checks.failed > 0)
        complaints = [journeyComplaints, await stack.complaints()].filter(Boolean).join('\n')
      await phases.run(
        'cleanup',
        async () => {
          const built = images.length
            ? images
            : ['emulators', 'tls', 'migrate', 'ops', 'api', 'web'].map((name) => stack.imageOf(name))
          await stack.removeEverything({ images: built, keepImages })
        },
        { always: true },
      )
      await running.close()
    }
    rmSync(work, { recursive: true, force: true })
    rmSync(join(ROOT, '.pilot/tls-input'), { recursive: true, force: true })
  }
  console.log('\ntest-pilot: figures')
  for (const [name, value] of figures) console.log(`  ${name.padEnd(48)} ${value}`)
  phases.print('test-pilot', started)
  if (phases.failure !== undefined && checks.failed === 0) checks.failed++
  checks.summary('test-pilot', phases.failure)
  if (complaints) console.log(complaints)
  process.exitCode = checks.failed > 0 ? 1 : 0
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  runPilotTest(process.argv.slice(2)).catch((error) => {
    console.error(`test-pilot: ${error instanceof Error ? error.message : String(error)}`)
    process.exitCode = 1
  })
}
