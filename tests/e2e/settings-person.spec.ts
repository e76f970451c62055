/// <reference lib="dom" />
import type { Page } from '@playwright/test'
import { type App, deleteApp, initializeApp } from 'firebase-admin/app'
import { initializeFirestore } from 'firebase-admin/firestore'
import { getStorage } from 'firebase-admin/storage'
import { ACCOUNTS, expect, seriousA11yViolations, signIn, test } from './fixtures.ts'

// axe is injected as a script tag, which the app's CSP (script-src 'self') would block.
test.use({ bypassCSP: true })

// A person of Egebakken, a location no other journey counts; the employee works at Solsikken only.
const PERSON = 'demo-borger15'

/** Runs a step with firebase-admin beside the app (the emulators need no Google credentials). */
async function asAdmin<T>(step: (app: App) => Promise<T>): Promise<T> {
  const app = initializeApp(
    { projectId: process.env.FIREBASE_PROJECT_ID ?? 'demo-bosted' },
    `settings-person-${Date.now()}-${Math.random()}`,
  )
  try {
    return await step(app)
  } finally {
    await deleteApp(app)
  }
}

/** The person's stored avatarUrl (a download URL), as the documents keep it. */
const storedAvatarUrl = (personId: string) =>
  asAdmin(async (app) => {
    const db = initializeFirestore(app, { preferRest: true })
    // The client sends its owner token, nothing is looked up.
    db.settings({
      auth: { getRequestHeaders: async () => ({}), fetch: (url: string, init: RequestInit) => fetch(url, init) },
    } as never)
    return String((await db.doc(`persons/${personId}`).get()).get('avatarUrl'))
  })

/** Whether the object a download URL names is stored. */
const objectExists = (downloadUrl: string) =>
  asAdmin(async (app) => {
    const [, bucket = '', name = ''] = /\/v0\/b\/([^/]+)\/o\/([^/]+)$/.exec(new URL(downloadUrl).pathname) ?? []
    const [exists] = await getStorage(app).bucket(decodeURIComponent(bucket)).file(decodeURIComponent(name)).exists()
    return exists
  })

async function expectAxeClean(page: Page): Promise<void> {
  expect(await seriousA11yViolations(page)).toEqual([])
}

test("a superuser changes a person's contact and features; each save toasts and a reload keeps it", async ({
  page,
}) => {
  await signIn(page, ACCOUNTS.superuser.email)
  await page.goto(`/person/${PERSON}/settings`)
  await expect(page.getByRole('heading', { level: 3, name: 'Oversigt' })).toBeVisible()
  await expectAxeClean(page)

  await page.getByRole('link', { name: 'Generelt' }).first().click()
  await expect(page.getByRole('heading', { level: 3, name: 'Generelt' })).toBeVisible()
  await page.getByLabel('Telefon').fill('+45 99 88 77 66')
  // Unsaved changes ask before leaving.
  await page.getByRole('link', { name: 'Funktioner' }).click()
  const leave = page.getByRole('dialog', { name: 'Forlad siden?' })
  await expect(leave).toContainText('Du har ændringer, der ikke er gemt.')
  await leave.getByRole('button', { name: 'Bliv på siden' }).click()
  await page.getByLabel('Fornavn').fill('')
  await page.getByLabel('Efternavn').focus()
  await expect(page.getByText('Fornavn er påkrævet')).toBeVisible()
  await page.getByLabel('Fornavn').fill('Karla')
  await expectAxeClean(page)
  await page.getByRole('button', { name: 'Gem' }).click()
  await expect(page.getByText('Borgeren blev opdateret korrekt')).toBeVisible()
  await page.reload()
  await expect(page.getByLabel('Telefon')).toHaveValue('+45 99 88 77 66')
  await expect(page.getByLabel('Fornavn')).toHaveValue('Karla')

  await page.getByRole('link', { name: 'Funktioner' }).click()
  await page.getByLabel('Alle funktioner').check()
  await expectAxeClean(page)
  await page.getByRole('button', { name: 'Gem' }).click()
  await expect(page.getByText('Borgeren blev opdateret korrekt')).toBeVisible()
  await page.reload()
  await expect(page.getByLabel('Tale til tekst')).toBeChecked()

  await page.getByRole('link', { name: 'Notifikationer' }).click()
  await page.getByLabel('Tidspunkt for daglig påmindelse (tom = ingen)').fill('19:45')
  await page.getByRole('button', { name: 'Gem' }).click()
  await expect(page.getByText('Borgeren blev opdateret korrekt')).toBeVisible()
  await page.getByRole('link', { name: 'Oversigt', exact: true }).click()
  await expect(page.getByText('Kl. 19.45')).toBeVisible()
  await expect(page.getByText('Svar, Fritekst, Tale til tekst')).toBeVisible()
})

test('an employee sees the settings pages read-only', async ({ page }) => {
  await signIn(page, ACCOUNTS.employee.email)
  await page.goto('/settings/answers')
  await expect(
    page.getByRole('list', { name: 'Svarmuligheder i rækkefølge' }).getByRole('listitem').first(),
  ).toBeVisible()
  await expect(page.getByRole('button', { name: 'Tilføj svarmulighed' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: /^Flyt/ })).toHaveCount(0)
  await expectAxeClean(page)
  await page.goto('/settings/notifications')
  await expect(page.getByRole('button', { name: 'Gem' })).toHaveCount(0)
  await page.goto('/person/demo-borger01/settings/general')
  await expect(page.getByLabel('Fornavn')).toBeDisabled()
  await expect(page.getByRole('button', { name: 'Gem' })).toHaveCount(0)
  await expectAxeClean(page)
  await page.goto('/person/demo-borger01/settings/settings')
  await expect(page.getByLabel('Alle funktioner')).toBeDisabled()
})

test("a superuser uploads a person's avatar, resized to 512 px, shown at once, and removes it again", async ({
  page,
}) => {
  await signIn(page, ACCOUNTS.superuser.email)
  await page.goto('/person/demo-borger16/settings/general')
  const name = `${await page.getByLabel('Fornavn').inputValue()} ${await page.getByLabel('Efternavn').inputValue()}`
  const png = await page.evaluate(() => {
    const canvas = document.createElement('canvas')
    canvas.width = 1200
    canvas.height = 800
    const context = canvas.getContext('2d') as CanvasRenderingContext2D
    context.fillStyle = '#2a6f97'
    context.fillRect(0, 0, 1200, 800)
    return canvas.toDataURL('image/png').split(',')[1] ?? ''
  })
  await page.getByLabel('Vælg billede').setInputFiles({
    name: 'portraet.png',
    mimeType: 'image/png',
    buffer: Buffer.from(png, 'base64'),
  })
  await expect(page.getByText('Borgeren blev opdateret korrekt')).toBeVisible()
  const preview = page.getByRole('img', { name: `Profilbillede: ${name}` })
  await expect(preview).toBeVisible()
  await expect.poll(() => preview.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(512)
  // The person's header shows the new picture too.
  await expect(page.locator('.person-head img')).toBeVisible()

  // Shown from an object URL: the picture was downloaded as the superuser, and its download URL
  // alone opens nothing (a person's data is read by someone the access log can name).
  expect(await preview.getAttribute('src')).toMatch(/^blob:/)
  const stored = await storedAvatarUrl('demo-borger16')
  expect(stored).toMatch(/[?&]token=/)
  expect((await page.request.get(stored)).status()).toBe(403)
  expect(await objectExists(stored)).toBe(true)
  await page.getByRole('button', { name: 'Fjern billede' }).click()
  await expect(preview).toHaveCount(0)
  // Removing deletes the stored object, not only the link to it.
  await expect.poll(() => objectExists(stored)).toBe(false)
  await expect(page.locator('.person-head img')).toHaveCount(0)
  await page.reload()
  await expect(page.getByRole('button', { name: 'Fjern billede' })).toHaveCount(0)
})

test('a file that is not an image is refused before any upload', async ({ page }) => {
  await signIn(page, ACCOUNTS.superuser.email)
  await page.goto('/person/demo-borger16/settings/general')
  await page.getByLabel('Vælg billede').setInputFiles({
    name: 'notat.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('ikke et billede'),
  })
  await expect(page.getByText('Vælg en billedfil (fx JPEG eller PNG).')).toBeVisible()
})

test("a superuser gives a person an own answer option and leaves out the location's", async ({ page }) => {
  await signIn(page, ACCOUNTS.superuser.email)
  await page.goto('/person/demo-borger17/settings/answers')
  const list = page.getByRole('list', { name: 'Svarmuligheder i rækkefølge' })
  await expect(page.getByLabel('Brug også lokationens svarmuligheder')).toBeChecked()
  await expectAxeClean(page)
  const form = page.getByRole('group', { name: 'Ny svarmulighed' })
  await form.getByLabel('Tekst').fill('Gik en tur')
  await form.getByLabel('Værdi').fill('3')
  await form.getByRole('button', { name: 'Tilføj svarmulighed' }).click()
  await expect(page.getByText('Svarmuligheden blev gemt')).toBeVisible()
  await expect(list.getByRole('listitem').last()).toContainText('Gik en tur')

  await page.getByLabel('Brug også lokationens svarmuligheder').uncheck()
  await expect(page.getByText('Borgeren blev opdateret korrekt')).toBeVisible()
  await page.reload()
  await expect(page.getByLabel('Brug også lokationens svarmuligheder')).not.toBeChecked()
  await page.getByRole('link', { name: 'Oversigt', exact: true }).click()
  await expect(page.getByText(/egne? svarmuligh.* · Bruger kun egne svarmuligheder/)).toBeVisible()
})

test("a person's reminder time page has no serious or critical accessibility violations", async ({ page }) => {
  await signIn(page, ACCOUNTS.superuser.email)
  await page.goto(`/person/${PERSON}/settings/notifications`)
  await expect(page.getByRole('button', { name: 'Gem' })).toBeVisible()
  await expectAxeClean(page)
})
