/// <reference lib="dom" />
import type { Browser, BrowserContext, Page } from '@playwright/test'
import { ACCOUNTS, chooseFromUserMenu, expect, signIn, test, userMenuButton } from './fixtures.ts'
import { createEmployee } from './staff-account.ts'

/** 'ok', or Auth's refusal, when the web SDK would refresh its ID token with this refresh token. */
async function refreshWith(page: Page, refreshToken: string): Promise<string> {
  const config = (await (await page.request.get('/config.json')).json()) as {
    emulators: { auth: string | null }
    firebase: { apiKey: string }
  }
  const response = await page.request.post(
    `${config.emulators.auth}/securetoken.googleapis.com/v1/token?key=${config.firebase.apiKey}`,
    { data: { grant_type: 'refresh_token', refresh_token: refreshToken } },
  )
  if (response.ok()) return 'ok'
  return ((await response.json()) as { error: { message: string } }).error.message
}

/** A second browser (another device): its own cookies and its own stored Auth user. */
async function otherDevice(browser: Browser, baseURL: string | undefined): Promise<BrowserContext> {
  return browser.newContext({ baseURL, locale: 'da-DK', timezoneId: 'Europe/Copenhagen' })
}

test('"Log ud" ends this device\'s session only: the same account stays signed in on another device', async ({
  page,
  browser,
  baseURL,
}) => {
  const account = ACCOUNTS.employee
  const tablet = await otherDevice(browser, baseURL)
  try {
    const ward = await tablet.newPage()
    await signIn(ward, account.email)
    await signIn(page, account.email)

    // The web sends this device's Firebase refresh token along, and the backend ends it too.
    const logoutRequest = page.waitForRequest((request) => request.url().endsWith('/api/auth/logout'))
    await chooseFromUserMenu(page, account.name, 'Log ud')
    await expect(page).toHaveURL(/\/login$/)
    const sent = (await logoutRequest).postDataJSON() as { refreshToken?: string } | null
    expect(typeof sent?.refreshToken).toBe('string')
    expect(await refreshWith(page, sent?.refreshToken as string)).toBe('TOKEN_EXPIRED')

    // The ward tablet carries on: a fresh start validates its session and reads its data.
    await ward.reload()
    await expect(ward.getByRole('heading', { level: 1, name: 'Dagsoversigt' })).toBeVisible()
    await expect(userMenuButton(ward, account.name)).toBeVisible()
    await ward.goto('/notes')
    await expect(ward.getByRole('heading', { level: 1, name: 'Dagbøger' })).toBeVisible()
    await expect(ward).not.toHaveURL(/\/login$/)
    const answer = await ward.request.post('/api/auth/validate', {
      data: { token: '' },
      headers: { origin: new URL(baseURL as string).origin },
    })
    expect(await answer.json()).toEqual({ isValid: true })

    // The office PC's own session is over: its old cookie is refused.
    await page.goto('/daily')
    await expect(page).toHaveURL(/\/login$/)
  } finally {
    await tablet.close()
  }
})

test('"Log ud på alle enheder" asks first, then ends the session on every device', async ({
  page,
  browser,
  baseURL,
}) => {
  // An account of its own: signing out everywhere would end other tests' sessions of a demo account.
  const account = await createEmployee()
  const tablet = await otherDevice(browser, baseURL)
  try {
    const ward = await tablet.newPage()
    await signIn(ward, account.email, account.password)
    await signIn(page, account.email, account.password)

    await chooseFromUserMenu(page, account.name, 'Log ud på alle enheder')
    const dialog = page.getByRole('dialog', { name: 'Log ud på alle enheder' })
    await expect(dialog).toContainText('Du bliver logget ud her og på alle andre enheder')
    await dialog.getByRole('button', { name: 'Annuller' }).click()
    await expect(dialog).toBeHidden()
    await expect(page).toHaveURL(/\/daily$/)

    await chooseFromUserMenu(page, account.name, 'Log ud på alle enheder')
    await page.getByRole('dialog').getByRole('button', { name: 'Log ud på alle enheder' }).click()
    await expect(page).toHaveURL(/\/login$/)

    // The ward tablet is signed out too: its next start finds its session ended.
    await ward.reload()
    await expect(ward).toHaveURL(/\/login$/)
  } finally {
    await tablet.close()
  }
})

test('a browser holding only the session and userId cookies loads the user and carries on (REQ-SESSION-3)', async ({
  page,
  browser,
  baseURL,
}) => {
  const account = ACCOUNTS.employee
  await signIn(page, account.email)
  const cookies = (await page.context().cookies()).filter(({ name }) => name === 'session' || name === 'userId')
  expect(cookies.map(({ name }) => name).sort()).toEqual(['session', 'userId'])

  // No stored Auth user (another browser profile, cleared site data, or Auth's storage lost).
  const bare = await otherDevice(browser, baseURL)
  try {
    await bare.addCookies(cookies)
    const fresh = await bare.newPage()
    const errors: string[] = []
    fresh.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text())
    })
    await fresh.goto('/daily')
    await expect(fresh.getByRole('heading', { level: 1, name: 'Dagsoversigt' })).toBeVisible()
    await expect(userMenuButton(fresh, account.name)).toBeVisible()
    await expect(fresh).not.toHaveURL(/\/login$/)
    await fresh.goto('/notes')
    await expect(fresh.getByRole('heading', { level: 1, name: 'Dagbøger' })).toBeVisible()
    expect(errors).toEqual([])
  } finally {
    await bare.close()
  }
})
