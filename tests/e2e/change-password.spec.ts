import type { Page } from '@playwright/test'
import { ACCOUNTS, chooseFromUserMenu, expect, failedRequest, signIn, TEMPORARY_PASSWORD, test } from './fixtures.ts'
import { createEmployee } from './staff-account.ts'

const SHELL = { tag: '@shell' }

/** How far the page reaches past the right edge of the screen, in px (0: no sideways scrolling). */
const sidewaysOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)

async function fillPasswords(page: Page, current: string, next: string): Promise<void> {
  await page.getByLabel('Nuværende adgangskode').fill(current)
  await page.getByLabel('Ny adgangskode', { exact: true }).fill(next)
  await page.getByLabel('Gentag ny adgangskode').fill(next)
  await page.getByRole('button', { name: 'Skift adgangskode' }).click()
}

test(
  'a user changes their own password from the user menu; their other device is signed out',
  SHELL,
  async ({ page, browser, allowConsoleErrors }) => {
    const account = await createEmployee()
    const other = await browser.newContext({
      ...test.info().project.use,
      baseURL: test.info().project.use.baseURL,
    })
    const otherPage = await other.newPage()
    try {
      await signIn(otherPage, account.email, account.password)
      // Sessions carry whole seconds: the other device signed in a second before the change.
      await page.waitForTimeout(1_100)
      await signIn(page, account.email, account.password)
      await chooseFromUserMenu(page, account.name, 'Skift adgangskode')
      await expect(page).toHaveURL(/\/password$/)
      await expect(page.getByRole('heading', { level: 1, name: 'Skift adgangskode' })).toBeVisible()
      expect(await sidewaysOverflow(page)).toBe(0)

      allowConsoleErrors(failedRequest(400, '/api/auth/change-password'))
      await fillPasswords(page, 'forkert-kode', 'min-egen-nye-kode')
      await expect(page.getByText('Den nuværende adgangskode er forkert')).toBeVisible()

      await fillPasswords(page, account.password, 'min-egen-nye-kode')
      await expect(page.getByText('Din adgangskode er skiftet. Du er logget ud på dine andre enheder.')).toBeVisible()
      await expect(page).toHaveURL(/\/daily$/)
      await expect(page.getByRole('heading', { level: 1, name: 'Dagsoversigt' })).toBeVisible()

      // The other device's next page load finds its session ended.
      await otherPage.goto('/notes')
      await expect(otherPage).toHaveURL(/\/login$/)
      await signIn(otherPage, account.email, 'min-egen-nye-kode')
    } finally {
      await other.close()
    }
  },
)

test('a temporary password set by a superuser must be changed before anything else', SHELL, async ({ page }) => {
  const account = await createEmployee()
  await signIn(page, ACCOUNTS.superuser.email)
  await page.goto('/settings/users')
  await page.getByRole('button', { name: `Rediger ${account.name}` }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Midlertidig adgangskode').fill(TEMPORARY_PASSWORD)
  await dialog.getByRole('button', { name: 'Sæt midlertidig adgangskode' }).click()
  await expect(page.getByText('Den midlertidige adgangskode er sat')).toBeVisible()
  await expect(dialog.getByLabel('Midlertidig adgangskode')).toHaveValue('')
  await page.keyboard.press('Escape')
  await chooseFromUserMenu(page, ACCOUNTS.superuser.name, 'Log ud')
  await expect(page).toHaveURL(/\/login$/)

  await page.getByLabel('Email').fill(account.email)
  await page.getByLabel('Adgangskode').fill(TEMPORARY_PASSWORD)
  await page.getByRole('button', { name: 'Log ind' }).click()
  await expect(page).toHaveURL(/\/password$/)
  await expect(
    page.getByText('Du er logget ind med en midlertidig adgangskode. Vælg din egen adgangskode, før du fortsætter.'),
  ).toBeVisible()
  // Nothing else until it is changed.
  await page.goto('/notes')
  await expect(page).toHaveURL(/\/password$/)

  await fillPasswords(page, TEMPORARY_PASSWORD, 'kun-min-egen-kode')
  await expect(page).toHaveURL(/\/daily$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Dagsoversigt' })).toBeVisible()
  await page.goto('/notes')
  await expect(page.getByRole('heading', { level: 1, name: 'Dagbøger' })).toBeVisible()
})

test('Glemt adgangskode? on the sign-in page says whom to ask', SHELL, async ({ page }) => {
  await page.goto('/login')
  await page.getByRole('button', { name: 'Glemt adgangskode?' }).click()
  await expect(
    page.getByText('Spørg din leder, en superbruger eller en administrator på dit bosted.', { exact: false }),
  ).toBeVisible()
})

/** A reset link's code for `email`, as a mail would carry it (asked of Auth's privileged listener). */
async function resetCode(email: string): Promise<string> {
  const response = await fetch(
    `http://${process.env.FIREBASE_AUTH_EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/accounts:sendOobCode`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
      body: JSON.stringify({ requestType: 'PASSWORD_RESET', email, returnOobLink: true }),
    },
  )
  const body = (await response.json()) as { oobCode?: string }
  if (!body.oobCode) throw new Error(`no reset code: ${JSON.stringify(body)}`)
  return body.oobCode
}

test("a reset link's page sets a new password once", async ({ page, allowConsoleErrors }) => {
  const account = await createEmployee()
  const oobCode = await resetCode(account.email)
  const choose = async (password: string) => {
    await page.goto(`/reset-password?mode=resetPassword&oobCode=${encodeURIComponent(oobCode)}`)
    await expect(page.getByRole('heading', { level: 1, name: 'Vælg ny adgangskode' })).toBeVisible()
    await page.getByLabel('Ny adgangskode', { exact: true }).fill(password)
    await page.getByLabel('Gentag ny adgangskode').fill(password)
    await page.getByRole('button', { name: 'Gem ny adgangskode' }).click()
  }
  await choose('nulstillet-kode-1')
  expect(await sidewaysOverflow(page)).toBe(0)
  await expect(page.getByText('Din nye adgangskode er gemt. Log ind med den.')).toBeVisible()

  allowConsoleErrors(failedRequest(400, '/api/auth/reset-password'))
  await choose('en-anden-kode-22')
  await expect(page.getByText('Linket er ugyldigt, allerede brugt eller udløbet. Bed om et nyt.')).toBeVisible()

  await signIn(page, account.email, 'nulstillet-kode-1')
})
