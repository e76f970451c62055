/// <reference lib="dom" />
import type { Page } from '@playwright/test'
import { ACCOUNTS, CHOSEN_PASSWORD, expect, seriousA11yViolations, signIn, test } from './fixtures.ts'

// axe is injected as a script tag, which the app's CSP (script-src 'self') would block.
test.use({ bypassCSP: true })

/** The smallest valid PNG, as a picture to upload. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
)

const uniqueSuffix = () =>
  Array.from({ length: 6 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('')

async function expectAxeClean(page: Page): Promise<void> {
  expect(await seriousA11yViolations(page)).toEqual([])
}

async function signInAtEgebakken(page: Page): Promise<void> {
  await signIn(page, ACCOUNTS.superuser.email)
  await page.getByRole('combobox', { name: 'Lokation' }).selectOption({ label: 'Egebakken' })
  await expect(page.getByRole('combobox', { name: 'Lokation' })).toHaveValue('egebakken')
}

test('a superuser creates a colleague for one location, who can sign in and sees only that location', {
  tag: '@tablet',
}, async ({ page, browser, baseURL }) => {
  const lastName = `Lund${uniqueSuffix()}`
  const name = `Mette ${lastName}`
  const email = `${lastName.toLowerCase()}@e2e.dk`
  await signInAtEgebakken(page)
  await page.goto('/settings/users')
  await expect(page.getByRole('row', { name: /Jesper Kjær/ })).toBeVisible()
  await expectAxeClean(page)
  await page.getByRole('link', { name: 'Opret bruger' }).click()

  await expect(page).toHaveURL(/\/create\/user\/general$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Opret bruger' })).toBeVisible()
  await page.getByLabel('Fornavn').fill('Mette')
  await page.getByLabel('Efternavn').fill(lastName)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Adgangskode').fill(CHOSEN_PASSWORD)
  await expect(page.getByLabel('Stillingsbetegnelse')).toHaveValue('Medarbejder')
  // A superuser creates employees only.
  await expect(page.getByRole('radio')).toHaveCount(1)
  await expect(page.getByRole('radio', { name: 'Medarbejder' })).toBeChecked()
  // A superuser may give the new employee a picture (storage.rules: whoever may update users/{uid}).
  await page.getByLabel('Vælg billede').setInputFiles({ name: 'mette.png', mimeType: 'image/png', buffer: PNG })
  await expect(page.getByRole('img', { name: `Profilbillede: Mette ${lastName}` })).toBeVisible()
  await expect(page.getByRole('checkbox', { name: 'Egebakken' })).toBeChecked()
  await expect(page.getByRole('checkbox', { name: 'Bostedet Solsikken' })).not.toBeChecked()
  await expectAxeClean(page)
  await page.getByRole('button', { name: 'Opret bruger' }).click()

  await expect(page.getByText('Brugeren blev tilføjet korrekt')).toBeVisible()
  // The picture is saved after the user exists, with its own toast; closed so the edit's can be told apart.
  const pictureSaved = page.getByRole('listitem').filter({ hasText: 'Brugeren blev opdateret korrekt' })
  await pictureSaved.getByRole('button', { name: 'Luk besked' }).click()
  await expect(pictureSaved).toHaveCount(0)
  await expect(page).toHaveURL(/\/settings\/users$/)
  const row = page.getByRole('row', { name: new RegExp(name) })
  await expect(row).toContainText('Medarbejder')
  await expect(row).toContainText('Aktiv')

  await expect(row.locator('img')).toBeVisible()

  await row.getByRole('button', { name: `Rediger ${name}` }).click()
  const dialog = page.getByRole('dialog', { name: `Rediger ${name}` })
  await dialog.getByLabel('Stillingsbetegnelse').fill('Pædagog')
  await dialog.getByRole('button', { name: 'Gem' }).click()
  // The avatar saved after the creation may still show its own 'opdateret' toast: wait for the data too.
  await expect(page.getByText('Brugeren blev opdateret korrekt').first()).toBeVisible()
  await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('Medarbejder')
  await page.reload()
  await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('Pædagog')

  const other = await browser.newContext({ baseURL, bypassCSP: true })
  const colleague = await other.newPage()
  await signIn(colleague, email, CHOSEN_PASSWORD)
  await expect(colleague.getByRole('combobox', { name: 'Lokation' })).toHaveCount(0)
  await expect(colleague.getByRole('banner').getByText('Egebakken')).toBeVisible()
  await other.close()
})

test('the user form shows the validation messages and asks before leaving it invalid', async ({ page }) => {
  await signInAtEgebakken(page)
  await page.goto('/create/user/general')
  await page.getByRole('button', { name: 'Opret bruger' }).click()
  await expect(page.getByText('Fornavn er påkrævet')).toBeVisible()
  await expect(page.getByText('Email er påkrævet')).toBeVisible()
  await expect(page.getByText('Adgangskode er påkrævet')).toBeVisible()

  await page.getByLabel('Fornavn').fill('Mette')
  await page.getByLabel('Email').fill('mette@')
  await page.getByLabel('Adgangskode').fill('kort')
  await page.getByLabel('Telefon').focus()
  await expect(page.getByText('Ugyldig email format')).toBeVisible()
  await expect(page.getByText('Adgangskode skal være mindst 6 tegn')).toBeVisible()
  await expectAxeClean(page)

  await page.getByRole('link', { name: 'Dagsoversigt' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'Forlad siden?' })
  await expect(dialog).toContainText(
    'Du har ikke udfyldt alle påkrævede felter. Er du sikker på, at du vil forlade siden?',
  )
  await dialog.getByRole('button', { name: 'Forlad siden' }).click()
  await expect(page).toHaveURL(/\/daily$/)
})

test('closing the tab with the user form filled but invalid asks through the browser’s own prompt', async ({
  page,
}) => {
  await signInAtEgebakken(page)
  await page.goto('/create/user/general')
  // A click gives the page the user activation browsers require before they show this prompt.
  await page.getByLabel('Fornavn').click()
  await page.getByLabel('Fornavn').fill('Mette')
  await page.getByLabel('Email').fill('mette@')
  await page.getByLabel('Adgangskode').fill('kort')
  const prompt = page.waitForEvent('dialog')
  await page.close({ runBeforeUnload: true })
  const dialog = await prompt
  expect(dialog.type()).toBe('beforeunload')
  await dialog.dismiss()
  await expect(page.getByLabel('Fornavn')).toHaveValue('Mette')
})

test('an employee sees the colleagues read-only', async ({ page }) => {
  await signIn(page, ACCOUNTS.employee.email)
  await page.goto('/settings/users')
  await expect(page.getByRole('row', { name: /Signe Dahl/ })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Opret bruger' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: /^Rediger/ })).toHaveCount(0)
  await expectAxeClean(page)
})

test('an admin creates a superuser and changes the role through the role call', async ({ page }) => {
  const lastName = `Berg${uniqueSuffix()}`
  const name = `Niels ${lastName}`
  await signIn(page, ACCOUNTS.admin.email)
  await page.getByRole('combobox', { name: 'Lokation' }).selectOption({ label: 'Fjordhuset' })
  await page.goto('/create/user/general')
  await page.getByLabel('Fornavn').fill('Niels')
  await page.getByLabel('Efternavn').fill(lastName)
  await page.getByLabel('Email').fill(`${lastName.toLowerCase()}@e2e.dk`)
  await page.getByLabel('Adgangskode').fill(CHOSEN_PASSWORD)
  await expect(page.getByRole('radio')).toHaveCount(3)
  await page.getByRole('radio', { name: 'Superbruger' }).check()
  const png = await page.evaluate(() => {
    const canvas = document.createElement('canvas')
    canvas.width = 640
    canvas.height = 640
    const context = canvas.getContext('2d') as CanvasRenderingContext2D
    context.fillStyle = '#bc4749'
    context.fillRect(0, 0, 640, 640)
    return canvas.toDataURL('image/png').split(',')[1] ?? ''
  })
  await page.getByLabel('Vælg billede').setInputFiles({
    name: 'niels.png',
    mimeType: 'image/png',
    buffer: Buffer.from(png, 'base64'),
  })
  await expect(page.getByRole('img', { name: `Profilbillede: ${name}` })).toBeVisible()
  await page.getByRole('button', { name: 'Opret bruger' }).click()
  await expect(page.getByText('Brugeren blev tilføjet korrekt')).toBeVisible()
  const row = page.getByRole('row', { name: new RegExp(name) })
  await expect(row).toContainText('Superbruger')
  await expect(row.locator('img')).toBeVisible()

  await row.getByRole('button', { name: `Rediger ${name}` }).click()
  const dialog = page.getByRole('dialog', { name: `Rediger ${name}` })
  await dialog.getByLabel('Rolle').selectOption({ label: 'Medarbejder' })
  await dialog.getByLabel('Deaktiveret').check()
  await dialog.getByRole('button', { name: 'Gem' }).click()
  // The avatar saved after the creation may still show its own 'opdateret' toast: wait for the data too.
  await expect(page.getByText('Brugeren blev opdateret korrekt').first()).toBeVisible()
  await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('Medarbejder')
  await page.reload()
  await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('Medarbejder')
  await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('Deaktiveret')
})
