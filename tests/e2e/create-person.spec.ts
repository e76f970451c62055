/// <reference lib="dom" />
import type { Page } from '@playwright/test'
import { ACCOUNTS, CHOSEN_PASSWORD, expect, seriousA11yViolations, signIn, test } from './fixtures.ts'

// axe is injected as a script tag, which the app's CSP (script-src 'self') would block.
test.use({ bypassCSP: true })

/** A suffix of letters only, so each run's new person has a name of its own on the shared stack. */
const uniqueSuffix = () =>
  Array.from({ length: 6 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('')

/**
 * Whether the identity provider (the Auth emulator) accepts the email and password. Persons do not
 * use the staff app; their accounts sign in to the provider like anyone's.
 */
async function acceptsSignIn(email: string, password: string): Promise<boolean> {
  const host = process.env.FIREBASE_AUTH_EMULATOR_HOST
  if (!host) throw new Error('the e2e global setup did not export the Auth emulator host')
  const response = await fetch(`http://${host}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=e2e`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, returnSecureToken: true }),
  })
  return response.status === 200
}

/** A 900 px square PNG drawn by the browser, as base64. */
function squarePng(page: Page): Promise<string> {
  return page.evaluate(() => {
    const canvas = document.createElement('canvas')
    canvas.width = 900
    canvas.height = 900
    const context = canvas.getContext('2d') as CanvasRenderingContext2D
    context.fillStyle = '#6a994e'
    context.fillRect(0, 0, 900, 900)
    return canvas.toDataURL('image/png').split(',')[1] ?? ''
  })
}

async function expectAxeClean(page: Page): Promise<void> {
  expect(await seriousA11yViolations(page)).toEqual([])
}

/** The superuser works at Solsikken and Egebakken; new persons go to Egebakken, which no other journey counts. */
async function signInAtEgebakken(page: Page): Promise<void> {
  await signIn(page, ACCOUNTS.superuser.email)
  await page.getByRole('combobox', { name: 'Lokation' }).selectOption({ label: 'Egebakken' })
  await expect(page.getByRole('combobox', { name: 'Lokation' })).toHaveValue('egebakken')
}

test('a superuser creates a person through the three steps; the person is listed in settings and on the daily overview', {
  tag: '@tablet',
}, async ({ page }) => {
  const lastName = `Nybo${uniqueSuffix()}`
  const name = `Astrid ${lastName}`
  await signInAtEgebakken(page)
  await page.goto('/settings/persons')
  await expect(page.getByRole('heading', { level: 2, name: 'Borgere' })).toBeVisible()
  await expectAxeClean(page)
  await page.getByRole('link', { name: 'Opret borger' }).click()

  await expect(page).toHaveURL(/\/create\/person\/general$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Opret borger' })).toBeVisible()
  await page.getByLabel('Fornavn').fill('Astrid')
  await page.getByLabel('Efternavn').fill(lastName)
  await page.getByLabel('Email').fill(`${lastName.toLowerCase()}@e2e.dk`)
  await page.getByLabel('Adgangskode').fill(CHOSEN_PASSWORD)
  await page.getByLabel('Telefon').fill('+45 12 34 56 78')
  await page.getByLabel('Vælg billede').setInputFiles({
    name: 'astrid.png',
    mimeType: 'image/png',
    buffer: Buffer.from(await squarePng(page), 'base64'),
  })
  await expect(page.getByRole('img', { name: `Profilbillede: ${name}` })).toBeVisible()
  await expectAxeClean(page)
  await page.getByRole('button', { name: 'Næste' }).click()

  await expect(page).toHaveURL(/\/create\/person\/answers$/)
  await page.getByRole('button', { name: 'Tilføj svarmulighed' }).click()
  await page.getByLabel('Tekst').fill('Glad for dagen')
  await page.getByLabel('Værdi').fill('5')
  await expect(page.getByLabel('Brug også lokationens svarmuligheder')).toBeChecked()
  await expectAxeClean(page)
  await page.getByRole('button', { name: 'Næste' }).click()

  await expect(page).toHaveURL(/\/create\/person\/settings$/)
  await page.getByLabel('Alle funktioner').check()
  for (const feature of ['Svar', 'Fritekst', 'Tale til tekst']) {
    await expect(page.getByLabel(feature, { exact: true })).toBeChecked()
  }
  await page.getByLabel('Tale til tekst').uncheck()
  await expect(page.getByLabel('Alle funktioner')).not.toBeChecked()
  await expectAxeClean(page)
  await page.getByRole('button', { name: 'Opret borger' }).click()

  await expect(page.getByText('Borgeren blev tilføjet korrekt')).toBeVisible()
  await expect(page).toHaveURL(/\/settings\/persons$/)
  const row = page.getByRole('row', { name: new RegExp(name) })
  await expect(row).toBeVisible()
  await expect(row.getByText('Aktiv')).toBeVisible()
  // The picture was uploaded once the person existed, and the list shows it.
  await expect(row.locator('img')).toBeVisible()
  await page.getByLabel('Søg').fill(lastName)
  await expect(page.getByRole('table').getByRole('link')).toHaveText([name])

  expect(await acceptsSignIn(`${lastName.toLowerCase()}@e2e.dk`, CHOSEN_PASSWORD)).toBe(true)

  await page.goto('/daily')
  await expect(page.getByRole('heading', { level: 2, name })).toBeVisible()
  await page.getByRole('button', { name: `Registrer for ${name}` }).click()
  await expect(page.getByRole('dialog').getByRole('radio', { name: /Glad for dagen/ })).toBeVisible()
})

test('the general step shows every validation message of the spec, on leaving a field and on submit', async ({
  page,
}) => {
  await signInAtEgebakken(page)
  await page.goto('/create/person/general')
  const firstName = page.getByLabel('Fornavn')
  const email = page.getByLabel('Email')
  const password = page.getByLabel('Adgangskode')

  await firstName.focus()
  await email.focus()
  await expect(page.getByText('Fornavn er påkrævet')).toBeVisible()
  await password.focus()
  await expect(page.getByText('Email er påkrævet')).toBeVisible()
  await page.getByLabel('Telefon').focus()
  await expect(page.getByText('Adgangskode er påkrævet')).toBeVisible()

  await firstName.fill('A')
  await email.fill('ikke-en-email')
  await password.fill('12345')
  await page.getByRole('button', { name: 'Næste' }).click()
  await expect(page.getByText('Fornavn skal være mindst 2 tegn')).toBeVisible()
  await expect(page.getByText('Ugyldig email format')).toBeVisible()
  await expect(page.getByText('Adgangskode skal være mindst 6 tegn')).toBeVisible()
  await expect(page).toHaveURL(/\/create\/person\/general$/)
  await expectAxeClean(page)
})

test('leaving the person form with the required fields filled but invalid asks first', async ({ page }) => {
  await signInAtEgebakken(page)
  await page.goto('/create/person/general')
  await page.getByLabel('Fornavn').fill('A')
  await page.getByLabel('Email').fill('a@e2e.dk')
  await page.getByLabel('Adgangskode').fill('hemmelig1')
  // Moving between the form's own steps is not leaving it.
  await page.getByRole('link', { name: '2. Svarmuligheder' }).click()
  await expect(page).toHaveURL(/\/create\/person\/answers$/)
  await expect(page.getByRole('dialog')).toHaveCount(0)

  await page.goto('/daily')
  // A reload keeps the draft, all but the password.
  await page.goto('/create/person/general')
  await expect(page.getByLabel('Fornavn')).toHaveValue('A')
  await expect(page.getByLabel('Email')).toHaveValue('a@e2e.dk')
  await expect(page.getByLabel('Adgangskode')).toHaveValue('')
  await page.getByLabel('Adgangskode').fill('hemmelig1')

  await page.getByRole('link', { name: 'Dagsoversigt' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'Forlad siden?' })
  await expect(dialog).toContainText(
    'Du har ikke udfyldt alle påkrævede felter. Er du sikker på, at du vil forlade siden?',
  )
  await expectAxeClean(page)
  await dialog.getByRole('button', { name: 'Bliv på siden' }).click()
  await expect(page).toHaveURL(/\/create\/person\/general$/)

  await page.getByRole('link', { name: 'Dagsoversigt' }).first().click()
  await dialog.getByRole('button', { name: 'Forlad siden' }).click()
  await expect(page).toHaveURL(/\/daily$/)
})

test('an employee sees the persons read-only and is not offered to create one', async ({ page }) => {
  await signIn(page, ACCOUNTS.employee.email)
  await page.goto('/settings/persons')
  await expect(page.getByRole('table').getByRole('row').nth(1)).toBeVisible()
  await expect(page.getByRole('link', { name: 'Opret borger' })).toHaveCount(0)
  await expectAxeClean(page)
  await page.goto('/create/person/general')
  await expect(
    page.getByText('Du kan se disse oplysninger, men kun en superbruger eller administrator kan ændre dem.'),
  ).toBeVisible()
  await expect(page.getByLabel('Fornavn')).toHaveCount(0)
})
