/// <reference lib="dom" />
import { ACCOUNTS, expect, failedRequest, signIn, test, userMenuButton } from './fixtures.ts'

test('the header shows the logo link, the three nav links and the user menu', async ({ page }) => {
  await signIn(page, ACCOUNTS.superuser.email)
  const header = page.getByRole('banner')
  await expect(header.getByRole('link', { name: /Bosted/ })).toHaveAttribute('href', '/daily')
  const nav = page.getByRole('navigation', { name: 'Hovedmenu' })
  await expect(nav.getByRole('link')).toHaveText(['Dagsoversigt', 'Dagbøger', 'Statistik'])
  await expect(nav.getByRole('link', { name: 'Dagsoversigt' })).toHaveAttribute('href', '/daily')
  await expect(nav.getByRole('link', { name: 'Dagbøger' })).toHaveAttribute('href', '/notes')
  await expect(nav.getByRole('link', { name: 'Statistik' })).toHaveAttribute('href', '/statistics')
  await nav.getByRole('link', { name: 'Dagbøger' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Dagbøger' })).toBeVisible()
  await nav.getByRole('link', { name: 'Statistik' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Statistik' })).toBeVisible()
  await header.getByRole('link', { name: /Bosted/ }).click()
  await expect(page).toHaveURL(/\/daily$/)
})

test("the header shows the active location's logo", async ({ page }) => {
  await signIn(page, ACCOUNTS.employee.email)
  const logo = page.getByRole('img', { name: 'Logo for Bostedet Solsikken' })
  await expect(logo).toBeVisible()
  expect(await logo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true)
})

test('Admin is in the user menu for the admin only', async ({ page }) => {
  await signIn(page, ACCOUNTS.admin.email)
  await userMenuButton(page, ACCOUNTS.admin.name).click()
  await expect(page.getByRole('menuitem')).toHaveText(['Indstillinger', 'Admin', 'Log ud'])
  await page.getByRole('menuitem', { name: 'Admin' }).click()
  await expect(page).toHaveURL(/\/admin$/)

  for (const account of [ACCOUNTS.superuser, ACCOUNTS.employee]) {
    await page.context().clearCookies()
    await signIn(page, account.email)
    await userMenuButton(page, account.name).click()
    await expect(page.getByRole('menuitem')).toHaveText(['Indstillinger', 'Log ud'])
  }
})

test('Indstillinger leads to /settings/persons, also by keyboard', async ({ page }) => {
  await signIn(page, ACCOUNTS.employee.email)
  const button = userMenuButton(page, ACCOUNTS.employee.name)
  await button.focus()
  await page.keyboard.press('ArrowDown')
  await expect(page.getByRole('menuitem', { name: 'Indstillinger' })).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(button).toBeFocused()
  await expect(page.getByRole('menu')).toBeHidden()
  await page.keyboard.press('Enter')
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/settings\/persons$/)
  await expect(page.getByRole('heading', { name: 'Borgere' })).toBeVisible()
})

test('the background panel with its shadow slides in after 48 px of scrolling', async ({ page }) => {
  await signIn(page, ACCOUNTS.employee.email)
  await page.evaluate(() => {
    // A long page: the main content grows (the header sticks within the shell around it).
    ;(document.getElementById('main') as HTMLElement).style.minHeight = '3000px'
  })
  const panel = page.getByTestId('header-panel')
  const shadow = () => panel.evaluate((element) => getComputedStyle(element).boxShadow)
  await expect(panel).toHaveAttribute('data-visible', 'false')
  expect(await shadow()).toBe('none')
  await page.evaluate(() => window.scrollTo(0, 48))
  await page.waitForTimeout(100)
  await expect(panel).toHaveAttribute('data-visible', 'false')
  await page.evaluate(() => window.scrollTo(0, 49))
  await expect(panel).toHaveAttribute('data-visible', 'true')
  await expect.poll(shadow).not.toBe('none')
  // Sticky: far down the page the header still sits at the top of the viewport.
  await page.evaluate(() => window.scrollTo(0, 1000))
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(1000)
  expect((await page.getByRole('banner').boundingBox())?.y).toBe(0)
  await page.evaluate(() => window.scrollTo(0, 0))
  await expect(panel).toHaveAttribute('data-visible', 'false')
})

test('Log ud goes to /login and back-navigation stays out', async ({ page }) => {
  await signIn(page, ACCOUNTS.employee.email)
  await page.getByRole('navigation', { name: 'Hovedmenu' }).getByRole('link', { name: 'Dagbøger' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Dagbøger' })).toBeVisible()
  await userMenuButton(page, ACCOUNTS.employee.name).click()
  await page.getByRole('menuitem', { name: 'Log ud' }).click()
  await expect(page).toHaveURL(/\/login$/)
  expect((await page.context().cookies()).filter((cookie) => cookie.name === 'session')).toEqual([])
  await page.goBack()
  await expect(page).toHaveURL(/\/login$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Log ind' })).toBeVisible()
  await page.goto('/notes')
  await expect(page).toHaveURL(/\/login$/)
})

test("a failed logout shows 'An error occurred during logout.' and keeps the user", async ({
  page,
  allowConsoleErrors,
}) => {
  allowConsoleErrors(failedRequest(500, '/api/auth/logout'))
  await signIn(page, ACCOUNTS.employee.email)
  await page.route('**/api/auth/logout', (route) =>
    route.fulfill({ status: 500, json: { error: { code: 'internal', message: 'x' } } }),
  )
  await userMenuButton(page, ACCOUNTS.employee.name).click()
  await page.getByRole('menuitem', { name: 'Log ud' }).click()
  await expect(page.getByText('An error occurred during logout.')).toBeVisible()
  await expect(page).toHaveURL(/\/daily$/)
  // Toasts sit top-center (SPEC §9).
  const toaster = page.locator('[data-sonner-toaster]')
  await expect(toaster).toHaveAttribute('data-y-position', 'top')
  await expect(toaster).toHaveAttribute('data-x-position', 'center')
})
