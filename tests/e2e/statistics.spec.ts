/// <reference lib="dom" />
import { type App, deleteApp, initializeApp } from 'firebase-admin/app'
import { initializeFirestore } from 'firebase-admin/firestore'
import { ACCOUNTS, downloadCsvLines, expect, seriousA11yViolations, signIn, test } from './fixtures.ts'

// axe is injected as a script tag, which the app's CSP (script-src 'self') would block.
test.use({ bypassCSP: true })

/** The registrations of a location and period as Firestore holds them (firebase-admin, beside the app). */
async function registrationsInFirestore(locationId: string, from: string, to: string): Promise<number> {
  let app: App | undefined
  try {
    app = initializeApp({ projectId: process.env.FIREBASE_PROJECT_ID ?? 'demo-bosted' }, `stats-${Date.now()}`)
    const db = initializeFirestore(app, { preferRest: true })
    // The emulator needs no Google credentials: the client sends its owner token, nothing is looked up.
    db.settings({
      auth: { getRequestHeaders: async () => ({}), fetch: (url: string, init: RequestInit) => fetch(url, init) },
    } as never)
    const snapshot = await db
      .collectionGroup('registrations')
      .where('locationId', '==', locationId)
      .where('day', '>=', from)
      .where('day', '<=', to)
      .count()
      .get()
    return snapshot.data().count
  } finally {
    if (app !== undefined) await deleteApp(app)
  }
}

const figure = (page: import('@playwright/test').Page, label: string) =>
  page
    .locator('.figures__item')
    .filter({ has: page.getByRole('term').filter({ hasText: label }) })
    .locator('.figures__value')

test('Statistik shows the key figures and charts of the active location, and a new period changes them', {
  tag: '@tablet',
}, async ({ page }) => {
  await signIn(page, ACCOUNTS.employee.email)
  await page.goto('/statistics')
  await expect(page.getByRole('heading', { level: 2, name: 'Oversigt' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Nøgletal' })).toBeVisible()
  for (const title of ['Dækning pr. dag', 'Fordeling af svar'])
    await expect(page.getByRole('figure', { name: title })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Værdi over tid' })).toBeVisible()
  await expect(page.locator('.chart canvas').first()).toBeVisible()
  await expect(page.getByText(/^I gennemsnit var \d+ % af borgerne registreret pr\. dag\./)).toBeVisible()
  const month = Number(await figure(page, 'Registreringer').textContent())
  expect(month).toBeGreaterThan(0)
  expect(await seriousA11yViolations(page)).toEqual([])

  const filters = page.getByRole('form', { name: 'Afgrænsning' })
  await filters.getByRole('radio', { name: '7 dage' }).check()
  await filters.getByRole('button', { name: 'Vis' }).click()
  await expect(page).toHaveURL(/period=7/)
  await expect.poll(async () => Number(await figure(page, 'Registreringer').textContent())).toBeLessThan(month)
  // Each name leads to the person's own day view.
  await page.getByRole('table').getByRole('link').first().click()
  await expect(page).toHaveURL(/\/person\/[^/]+\/daily$/)
})

test('"Vis som tabel" shows the numbers behind a chart', async ({ page }) => {
  await signIn(page, ACCOUNTS.employee.email)
  await page.goto('/statistics?period=7')
  const coverage = page.getByRole('figure').filter({ hasText: 'Dækning pr. dag' })
  await coverage.getByText('Vis som tabel').click()
  const table = coverage.getByRole('table')
  await expect(table).toBeVisible()
  await expect(table.getByRole('row')).toHaveCount(8)
  await expect(table.getByRole('columnheader')).toHaveText(['Dag', 'Registreringer', 'Borgere', 'Andel'])
  expect(await seriousA11yViolations(page)).toEqual([])
})

test("the registrations CSV holds exactly the period's registrations in Firestore, made for Danish Excel", async ({
  page,
}) => {
  await signIn(page, ACCOUNTS.employee.email)
  await page.goto('/statistics?period=30')
  await expect(figure(page, 'Registreringer')).toBeVisible()
  const period = await page.evaluate(() => new URLSearchParams(window.location.search).get('period'))
  expect(period).toBe('30')
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Copenhagen' }).format(new Date())
  const from = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Copenhagen' }).format(Date.now() - 29 * 86_400_000)

  const { name, lines } = await downloadCsvLines(page, 'Hent registreringer (CSV)')
  expect(name).toBe(`registreringer-bostedet-solsikken-${from}-${today}.csv`)
  expect(lines[0]).toBe('"Dato";"Borger";"Svar";"Værdi";"Type";"Kommentar";"Registreret af";"Tidspunkt"')
  expect(lines.length - 1).toBe(await registrationsInFirestore('solsikken', from, today))
  expect(lines.slice(1).every((line) => /^"\d{4}-\d{2}-\d{2}";/.test(line))).toBe(true)
})

test('a period without registrations says so', async ({ page }) => {
  await signIn(page, ACCOUNTS.employee.email)
  await page.goto('/statistics?from=2020-01-01&to=2020-01-31')
  await expect(page.getByText('Ingen registreringer i perioden.')).toBeVisible()
  await expect(figure(page, 'Registreringer')).toHaveText('0')
})

test('a location without persons says so on Statistik, with no figures of nobody', async ({ page }) => {
  await signIn(page, ACCOUNTS.admin.email)
  const name = `Tom lokation ${Date.now().toString(36).slice(-5)}${Math.random().toString(36).slice(2, 5)}`
  await page.goto('/admin')
  await page.getByLabel('Navn på den nye lokation').fill(name)
  await page.getByRole('button', { name: 'Opret lokation' }).click()
  await expect(page.getByText('Lokationen blev oprettet')).toBeVisible()
  await page.getByRole('combobox', { name: 'Lokation', exact: true }).selectOption({ label: name })
  await page.getByRole('link', { name: 'Statistik' }).click()
  await expect(page.getByText('Der er ingen borgere på denne lokation endnu.')).toBeVisible()
  await expect(page.locator('.figures')).toHaveCount(0)
  await expect(page.getByRole('form', { name: 'Afgrænsning' })).toHaveCount(0)
})

test('a failed fetch shows a notice with Prøv igen, never figures of nothing; trying again loads them', async ({
  page,
  allowConsoleErrors,
}) => {
  // The browser's own lines for the queries answered 503 (Firestore unavailable): the collection
  // groups' and a parent's (the location's persons, a person's records), whichever are still asked.
  allowConsoleErrors(/status of 503 .*documents(\/[^ :]+)?:run(Aggregation)?Query/)
  await signIn(page, ACCOUNTS.employee.email)
  let failing = true
  const unavailable = { code: 503, message: 'The service is currently unavailable.', status: 'UNAVAILABLE' }
  await page.route(/:run(Aggregation)?Query/, (route) =>
    failing ? route.fulfill({ status: 503, json: { error: unavailable } }) : route.continue(),
  )
  await page.goto('/statistics')
  await expect(page.getByRole('alert').getByText('Statistikken kunne ikke hentes.')).toBeVisible({ timeout: 20_000 })
  await expect(page.locator('.figures')).toHaveCount(0)
  failing = false
  await page.getByRole('button', { name: 'Prøv igen' }).click()
  await expect(figure(page, 'Registreringer')).toBeVisible()
})

test('printed, the page has its figures, charts and table and none of the header or the controls', async ({ page }) => {
  await signIn(page, ACCOUNTS.employee.email)
  await page.goto('/statistics?period=7')
  await expect(page.getByRole('figure', { name: 'Dækning pr. dag' })).toBeVisible()
  await page.emulateMedia({ media: 'print' })
  await expect(page.getByRole('banner')).toBeHidden()
  await expect(page.getByRole('form', { name: 'Afgrænsning' })).toBeHidden()
  await expect(page.getByRole('button', { name: 'Udskriv' })).toBeHidden()
  await expect(page.getByRole('figure', { name: 'Dækning pr. dag' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Borgere i perioden' })).toBeVisible()
})
