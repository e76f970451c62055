// `make test-pilot`: the pilot's promises (issue 31), run against docker-compose.pilot.yml on podman,
// from nothing, on a free port bound to 127.0.0.1:
//   - up from nothing with a self-signed certificate; time to healthy; only PILOT_PORT is published;
//   - https with the generated certificate (trusted by this test and nothing else); plain http on
//     the same port redirects and serves no app; HSTS, the CSP naming only the origin, Secure cookies;
//   - nobody signs up; make pilot-admin's administrator signs in through the origin (Auth, Firestore,
//     the api's session cookie);
//   - in Chromium: the admin creates a location, a superuser and a person; the person answers on
//     "Min dag"; the admin sees it in Statistik and the person's Adgangslog;
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
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { freePorts, log, ROOT, run, seconds } from './compose.mjs'
import { pilotEngine, pilotEnvironment, restoreBackup, stageCertificate, takeBackup } from './pilot.mjs'

const PROJECT_ID = 'bosted-pilot'
/** The smallest valid PNG, as a picture to upload. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
)
const API_KEY = 'pilot-api-key'

class Checks {
  passed = 0
  failed = 0
  ok(condition, what, detail = '') {
    if (condition) {
      this.passed++
      console.log(`  ok      ${what}`)
    } else {
      this.failed++
      console.log(`  FAILED  ${what}${detail ? `: ${String(detail).slice(0, 400)}` : ''}`)
    }
    return Boolean(condition)
  }
}

/** One HTTPS request to the pilot, trusting only its certificate. */
function https(base, ca, path, { method = 'GET', headers = {}, body } = {}) {
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
            status: response.statusCode,
            headers: response.headers,
            body: text,
            tls: req.socket?.getProtocol?.(),
          }),
        )
      },
    )
    req.once('timeout', () => req.destroy(new Error('timeout')))
    req.once('error', reject)
    req.end(body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body))
  })
}

function plainHttp(port, path) {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, timeout: 10_000 }, (response) => {
      let text = ''
      response.on('data', (chunk) => (text += chunk))
      response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body: text }))
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
async function apiCall(base, ca, path, options) {
  let response
  for (let attempt = 1; attempt <= 5; attempt++) {
    response = await https(base, ca, path, options)
    if (response.status < 500) return response
    log(`${path} answered ${response.status} (${response.body.slice(0, 160)}); again in 2 s`)
    await sleep(2000)
  }
  return response
}

const json = (response) => {
  try {
    return JSON.parse(response.body)
  } catch {
    return {}
  }
}

/** A node script run in the ops container, against emulator-lite's admin listener (emulators:9098). */
const adminScript = (body) => `
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
 */
export async function browserJourney(checks, { base, ca, email, password }) {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
  if (!existsSync(executablePath)) {
    checks.ok(false, `Chromium at ${executablePath} (make install puts Debian's there)`)
    return
  }
  const { chromium } = await import('playwright')
  const spki = createHash('sha256')
    .update(new X509Certificate(ca).publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64')
  const browser = await chromium.launch({
    executablePath,
    args: [
      `--ignore-certificate-errors-spki-list=${spki}`,
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
    ],
  })
  try {
    const page = await browser.newPage({ baseURL: base })
    const elsewhere = []
    const failed = []
    page.on('request', (request) => {
      if (!request.url().startsWith(base) && !/^(data|blob):/.test(request.url())) elsewhere.push(request.url())
    })
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`)
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

    // A superuser with a picture (an upload to Storage through the origin), who then signs in.
    const seen = (locator) =>
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
    checks.ok(elsewhere.length === 0, 'the browser fetched nothing from any other origin', elsewhere.join(' '))
    checks.ok(failed.length === 0, 'no request failed', failed.join(' '))
  } finally {
    await browser.close()
  }
}

export async function runPilotTest(args) {
  const keepImages = args.includes('--keep-images') || process.env.KEEP_IMAGES === '1'
  const started = Date.now()
  const figures = []
  const timings = []
  const checks = new Checks()
  let failure
  const phase = async (name, action) => {
    if (failure) throw failure
    const since = Date.now()
    log(`--- ${name} ---`)
    try {
      return await action()
    } finally {
      timings.push([name, Date.now() - since])
    }
  }
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
  let pilot
  let images = []
  try {
    stageCertificate(env)
    pilot = await phase('podman setup', () => pilotEngine(env))
    if (pilot.engine !== 'podman') throw new Error('make test-pilot runs on podman (as make test-containers does)')
    // What an earlier, killed run left behind (containers, volumes, networks, images of bosted-pilot-test-*).
    const { removeLeftovers } = await import('./test-containers.mjs')
    await removeLeftovers('bosted-pilot-test-')
    const { stack } = pilot
    await phase('base images and image builds', async () => {
      const { baseImages } = await import('./compose.mjs')
      Object.assign(stack.env, await baseImages(env))
      images = await stack.build()
    })
    const upStarted = Date.now()
    await phase('up from nothing until healthy', () => stack.up())
    figures.push(['time from nothing to healthy (images built)', seconds(upStarted)])
    checks.ok((await stack.notReady()) === '', 'every service healthy, tls and migrate exited 0')

    // --- ports and TLS
    const containers = await stack.containers()
    const bindings = containers.flatMap((c) =>
      Object.values(c.ports ?? {})
        .flat()
        .filter(Boolean)
        .map((binding) => `${c.service}:${binding.HostIp}:${binding.HostPort}`),
    )
    checks.ok(
      bindings.length === 1 && bindings[0] === `web:127.0.0.1:${port}`,
      `only PILOT_PORT is published (web on 127.0.0.1:${port})`,
      bindings.join(' '),
    )
    const web = containers.find((c) => c.service === 'web')
    const ca = (await run('podman', ['exec', web.id, 'cat', '/tls/cert.pem'], { capture: true })).stdout
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
      /max-age=\d+/.test(index.headers['strict-transport-security'] ?? ''),
      'HSTS',
      index.headers['strict-transport-security'],
    )
    const csp = index.headers['content-security-policy'] ?? ''
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
    // first calls to Auth can time out): a client tries again, and so does this.
    let login
    for (let attempt = 1; attempt <= 5; attempt++) {
      login = await apiCall(base, ca, '/api/auth/login', {
        method: 'POST',
        headers: { origin: base },
        body: { idToken: session.idToken },
      })
      if (login.status < 500) break
      log(`/api/auth/login answered ${login.status} (${login.body.slice(0, 200)}); again in 2 s`)
      await sleep(2000)
    }
    const cookies = [login.headers['set-cookie'] ?? []].flat()
    checks.ok(
      login.status === 200 && cookies.length > 0 && cookies.every((cookie) => /;\s*Secure/i.test(cookie)),
      'the api session cookies are Secure',
      `${login.status} ${login.body.slice(0, 200)} ${cookies.join(' | ')}`,
    )
    const cookieHeader = cookies.map((cookie) => cookie.split(';')[0]).join('; ')
    const valid = json(
      await apiCall(base, ca, '/api/auth/validate', {
        method: 'POST',
        headers: { origin: base, cookie: cookieHeader },
        body: {},
      }),
    )
    checks.ok(valid.isValid === true, 'the api session is valid through the origin', JSON.stringify(valid))

    // --- the browser: Chromium over HTTPS, trusting the generated certificate (its key) and nothing else
    await phase('browser journey (Chromium over HTTPS)', () =>
      browserJourney(checks, { base, ca, email: 'it@kommune.dk', password }),
    )

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
      let mail
      for (let waited = 0; waited < 60 && !mail; waited += 2) {
        const lines = (await pilot.logsOf('smtp-test')).split('\n')
        mail = lines
          .map((line) => /MAIL (\{.*\})\s*$/.exec(line)?.[1])
          .filter(Boolean)
          .map((line) => JSON.parse(line))
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
      const withPassword = (password) =>
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

    // --- the edge
    const digest = async () =>
      (
        await pilot.exec('ops', ['node', 'infra/docker/pilot/ops.mjs', 'digest', '/data'], { capture: true })
      ).stdout.trim()
    const documentsOf = (state) =>
      Object.entries(JSON.parse(state || '{}'))
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
    const attempts = [
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
    const manifest = JSON.parse(readFileSync(join(unpacked, 'manifest.json'), 'utf8'))
    const raw = manifest.parts.reduce((sum, part) => sum + part.bytes, 0)
    figures.push([
      'the parts before compression',
      `${(raw / 1024 / 1024).toFixed(2)} MB (synthetic text compresses far better than real data)`,
    ])
    checks.ok(
      manifest.parts.every((part) => /^[0-9a-f]{64}$/.test(part.sha256)) && manifest.schema && manifest.createdAt,
      'the manifest has the time, the schema and a SHA-256 per part',
    )
    const archived = (
      await run('node', ['infra/docker/pilot/ops.mjs', 'digest', join(unpacked, 'data')], { capture: true })
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
      await pilot.exec('ops', ['node', 'infra/docker/pilot/ops.mjs', 'digest', '/data'], { capture: true })
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
    let late
    for (let attempt = 1; attempt <= 5; attempt++) {
      late = await pilot.exec(
        'ops',
        [
          'node',
          '-e',
          adminScript("const r = await fetch(base + '/pilotWriter/after-backup', { headers }); console.log(r.status)"),
        ],
        { capture: true },
      )
      if (late.code === 0) break
      log(`reading pilotWriter/after-backup failed (${late.stderr.trim().slice(0, 200)}); again in 2 s`)
      await sleep(2000)
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
    const cookies2 = [login2.headers['set-cookie'] ?? []]
      .flat()
      .map((cookie) => cookie.split(';')[0])
      .join('; ')
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
      let archives = []
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
        archives.length === 2 && archives.includes(old.at(-1)),
        `retention: the newest 2 of ${old.length + fresh.length} archives are kept, the older ones removed`,
        archives.join(' '),
      )
      if (fresh[0]) {
        const verified = await pilot.exec(
          'ops',
          ['node', 'infra/docker/pilot/ops.mjs', 'verify', `/backups/${fresh[0]}`],
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
      await run('podman', ['start', '--attach', migrate.id], { capture: true, timeoutMs: 3 * 60_000 })
      const after = (await stack.containers()).find((c) => c.service === 'migrate')
      const logs = await pilot.logsOf('migrate')
      checks.ok(
        after.exitCode !== 0 && /newer Bosted \(migrations 999-from-the-future/.test(logs),
        'migrate refuses data a newer version migrated, with a clear message',
        `exit ${after.exitCode}: ${logs.slice(-300)}`,
      )
      const newerBackup = await takeBackup(pilot, join(work, 'backups'))
      const verified = await pilot.exec('ops', ['node', 'infra/docker/pilot/ops.mjs', 'verify', newerBackup.archive], {
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
    failure ??= error
    console.error(`\npilot-test: FAILED: ${error instanceof Error ? error.stack : String(error)}`)
    await pilot?.stack?.logs(80).catch(() => {})
  } finally {
    if (pilot?.stack) {
      const since = Date.now()
      const built = images.length
        ? images
        : ['emulators', 'tls', 'migrate', 'ops', 'api', 'web'].map((name) => pilot.stack.imageOf(name))
      await pilot.stack.removeEverything({ images: built, keepImages })
      timings.push(['cleanup', Date.now() - since])
    }
    await pilot?.close()
    rmSync(work, { recursive: true, force: true })
    rmSync(join(ROOT, '.pilot/tls-input'), { recursive: true, force: true })
  }
  console.log('\ntest-pilot: figures')
  for (const [name, value] of figures) console.log(`  ${name.padEnd(48)} ${value}`)
  console.log('test-pilot: timings')
  for (const [name, ms] of timings) console.log(`  ${name.padEnd(64)} ${(ms / 1000).toFixed(1)} s`)
  console.log(`  ${'total'.padEnd(64)} ${seconds(started)}`)
  if (failure && checks.failed === 0) checks.failed++
  console.log(`test-pilot: ${checks.passed} passed, ${checks.failed} failed`)
  process.exitCode = checks.failed > 0 ? 1 : 0
}
