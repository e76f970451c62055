/// <reference lib="dom" />
import type { Page } from '@playwright/test'
import { installFakeSpeech } from './fake-speech.ts'
import { ACCOUNTS, DEMO_PASSWORD, expect, seriousA11yViolations, signIn, test } from './fixtures.ts'

// axe is injected as a script tag, which the app's CSP (script-src 'self') would block.
test.use({ bypassCSP: true })

// From the seed: borger10 has every feature (Solsikken, where medarbejder works), borger01 none,
// borger12 is disabled.
const ALL_FEATURES = 'borger10@demo.dk'
const NO_FEATURES = 'borger01@demo.dk'
const DISABLED = 'borger12@demo.dk'

const unique = (label: string) =>
  `${label} ${Date.now().toString(36).slice(-5)}${Math.random().toString(36).slice(2, 5)}`

/** Signs a person (borger) in: they land on "Min dag". */
async function signInPerson(page: Page, email: string): Promise<void> {
  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Adgangskode').fill(DEMO_PASSWORD)
  await page.getByRole('button', { name: 'Log ind' }).click()
  await expect(page).toHaveURL(/\/me$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Min dag' })).toBeVisible()
}

test("a person answers today's question and writes in their diary on Min dag; staff see both marked as theirs", {
  tag: '@shell',
}, async ({ page, browser, baseURL }) => {
  await signInPerson(page, ALL_FEATURES)
  const name = (await page.locator('.person-header__name').textContent()) ?? ''
  await expect(page.getByText(/^Hej /)).toBeVisible()
  // Only their name and Log ud in the header: no staff links.
  await expect(page.getByRole('banner').getByRole('link', { name: 'Dagsoversigt' })).toHaveCount(0)
  await expect(page.getByRole('banner').getByRole('button', { name: 'Log ud' })).toBeVisible()
  expect(await seriousA11yViolations(page)).toEqual([])

  const question = page.getByRole('region', { name: 'Hvordan har du det i dag?' })
  const choice = question.getByRole('radio').first()
  const answer = ((await choice.locator('xpath=..').textContent()) ?? '').trim()
  await choice.check()
  await question.getByRole('button', { name: 'Gem mit svar' }).click()
  await expect(page.getByText('Registreringen blev gemt')).toBeVisible()
  await expect(question.getByText(`Du har svaret: ${answer}`)).toBeVisible()
  const box = await question.getByRole('button', { name: 'Gem mit svar' }).boundingBox()
  expect(box?.height ?? 0).toBeGreaterThanOrEqual(48)

  const diary = page.getByRole('region', { name: 'Skriv i din dagbog' })
  const text = unique('Jeg har bagt boller med Lise.')
  await diary.getByLabel('Din dagbog i dag').fill(text)
  await diary.getByRole('button', { name: 'Gem i dagbogen' }).click()
  await expect(page.getByText('Notatet blev gemt')).toBeVisible()
  const lastDays = page.getByRole('region', { name: 'Mine sidste dage' })
  await expect(lastDays.getByText(text)).toBeVisible()
  await expect(lastDays.getByText(/af dig$/).first()).toBeVisible()

  const other = await browser.newContext({ baseURL, bypassCSP: true })
  const staff = await other.newPage()
  await signIn(staff, ACCOUNTS.employee.email)
  const row = staff
    .getByRole('list', { name: 'Borgere' })
    .getByRole('article')
    .filter({ has: staff.getByRole('heading', { name, exact: true }) })
  await expect(row.getByText('Registreret af borgeren selv')).toBeVisible()
  await staff.goto(`/notes?q=${encodeURIComponent(text.split(' ').at(-1) as string)}&period=7`)
  await expect(staff.getByRole('article').filter({ hasText: text }).getByText('Skrevet af borgeren selv')).toBeVisible()
  await other.close()
})

test('a person whose features are all off sees only a friendly sentence, and no controls', async ({ page }) => {
  await signInPerson(page, NO_FEATURES)
  await expect(
    page.getByText('Personalet skriver din dagbog sammen med dig. Spørg dem, hvis du vil se eller tilføje noget.'),
  ).toBeVisible()
  await expect(page.getByRole('radio')).toHaveCount(0)
  await expect(page.getByRole('textbox')).toHaveCount(0)
  await expect(page.getByRole('region', { name: 'Mine sidste dage' })).toBeVisible()
})

test('a person who types a staff route ends on Min dag, and staff who type /me end on the daily overview', async ({
  page,
}) => {
  await signInPerson(page, ALL_FEATURES)
  for (const path of [
    '/daily',
    '/notes',
    '/person/demo-borger02/daily',
    '/settings/persons',
    '/statistics',
    '/admin',
  ]) {
    await page.goto(path)
    await expect(page, path).toHaveURL(/\/me$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Min dag' })).toBeVisible()
  }
  await page.getByRole('button', { name: 'Log ud' }).click()
  await expect(page).toHaveURL(/\/login$/)

  await signIn(page, ACCOUNTS.employee.email)
  await page.goto('/me')
  await expect(page).toHaveURL(/\/daily$/)
})

test('a disabled person is refused at sign-in with the Danish message', async ({ page, allowConsoleErrors }) => {
  // The browser's own line for the refused request (the api's 403, or Auth's 400 for a disabled account).
  allowConsoleErrors(/status of (400|403) /)
  await page.goto('/login')
  await page.getByLabel('Email').fill(DISABLED)
  await page.getByLabel('Adgangskode').fill(DEMO_PASSWORD)
  await page.getByRole('button', { name: 'Log ind' }).click()
  await expect(page.getByText('Din bruger er deaktiveret. Kontakt din administrator.')).toBeVisible()
  await expect(page).toHaveURL(/\/login$/)
})

test('a person dictates their diary on the device; the entry is saved as dictated', async ({ page }) => {
  await page.addInitScript(installFakeSpeech, 'available')
  await signInPerson(page, ALL_FEATURES)
  const diary = page.getByRole('region', { name: 'Skriv i din dagbog' })
  await expect(diary.getByText('Tale genkendes på enheden og sendes ingen steder hen.')).toBeVisible()
  const marker = unique('I dag:')
  await diary.getByLabel('Din dagbog i dag').fill(marker)
  await diary.getByRole('button', { name: 'Diktér' }).click()
  await expect(diary.getByLabel('Din dagbog i dag')).toHaveValue(`${marker} Spiste morgenmad med god appetit.`)
  await diary.getByRole('button', { name: 'Stop diktat' }).click()
  await diary.getByRole('button', { name: 'Gem i dagbogen' }).click()
  await expect(page.getByText('Notatet blev gemt')).toBeVisible()
  await expect(
    page.getByRole('region', { name: 'Mine sidste dage' }).getByText(`${marker} Spiste morgenmad med god appetit.`),
  ).toBeVisible()
})

test("a feature an admin turns off for a location is gone from its persons' Min dag", async ({
  page,
  browser,
  baseURL,
}) => {
  // borger17 (Egebakken) may answer, write and dictate.
  await signIn(page, ACCOUNTS.admin.email)
  await page.goto('/admin/location/egebakken/features')
  const answers = page.getByRole('checkbox', { name: 'Registrering af svar' })
  await answers.uncheck()
  await page.getByRole('button', { name: 'Gem' }).click()
  await expect(page.getByText('Lokationen blev opdateret')).toBeVisible()
  try {
    const other = await browser.newContext({ baseURL, bypassCSP: true })
    const person = await other.newPage()
    await signInPerson(person, 'borger17@demo.dk')
    await expect(person.getByRole('region', { name: 'Skriv i din dagbog' })).toBeVisible()
    await expect(person.getByRole('region', { name: 'Hvordan har du det i dag?' })).toHaveCount(0)
    await other.close()
  } finally {
    await answers.check()
    await page.getByRole('button', { name: 'Gem' }).click()
    await expect(page.getByText('Lokationen blev opdateret').first()).toBeVisible()
  }
})

test('Min dag reflows at 320 px wide (a 640 px window at 200 % zoom) and every control is 48 px or more', async ({
  page,
}) => {
  await signInPerson(page, ALL_FEATURES)
  await page.setViewportSize({ width: 320, height: 640 })
  await expect(page.getByRole('region', { name: 'Hvordan har du det i dag?' }).getByRole('radio').first()).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0)
  const small = await page.locator('main, header').evaluateAll((roots) =>
    roots.flatMap((root) =>
      [...root.querySelectorAll<HTMLElement>('button, input, textarea, select, a.button')]
        .filter((control) => control.getClientRects().length > 0)
        .map((control) => {
          const isChoice = control instanceof HTMLInputElement && control.type === 'radio'
          const target = (isChoice ? control.labels?.[0] : null) ?? control
          return { html: target.outerHTML.slice(0, 60), height: target.getBoundingClientRect().height }
        })
        .filter(({ height }) => height < 48),
    ),
  )
  expect(small).toEqual([])
})
