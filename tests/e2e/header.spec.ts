/// <reference lib="dom" />

import type { Locator } from '@playwright/test'
import {
  ACCOUNTS,
  chooseFromUserMenu,
  expect,
  failedRequest,
  isNarrow,
  mainNav,
  menuButton,
  openUserMenu,
  signIn,
  test,
  userMenuButton,
} from './fixtures.ts'

const SHELL = { tag: '@shell' }

test('the header shows the logo link, the three nav links and the user menu', SHELL, async ({ page }) => {
  await signIn(page, ACCOUNTS.superuser.email)
  const header = page.getByRole('banner')
  await expect(header.getByRole('link', { name: /Bosted/ })).toHaveAttribute('href', '/daily')
  await expect(userMenuButton(page, ACCOUNTS.superuser.name)).toBeVisible()
  if (!isNarrow(page)) {
    // The signed-in user's own picture (users/{uid}.avatarUrl), loaded, in place of their initial.
    const picture = userMenuButton(page, ACCOUNTS.superuser.name).locator('img')
    await expect(picture).toBeVisible()
    await expect.poll(() => picture.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0)
  }
  let nav = await mainNav(page)
  await expect(nav.getByRole('link')).toHaveText(['Dagsoversigt', 'Dagbøger', 'Statistik'])
  await expect(nav.getByRole('link', { name: 'Dagsoversigt' })).toHaveAttribute('href', '/daily')
  await expect(nav.getByRole('link', { name: 'Dagbøger' })).toHaveAttribute('href', '/notes')
  await expect(nav.getByRole('link', { name: 'Statistik' })).toHaveAttribute('href', '/statistics')
  await nav.getByRole('link', { name: 'Dagbøger' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Dagbøger' })).toBeVisible()
  nav = await mainNav(page)
  await nav.getByRole('link', { name: 'Statistik' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Statistik' })).toBeVisible()
  await header.getByRole('link', { name: /Bosted/ }).click()
  await expect(page).toHaveURL(/\/daily$/)
})

test("the header shows the active location's logo, whole and inside the screen", SHELL, async ({ page }) => {
  await signIn(page, ACCOUNTS.employee.email)
  const logo = page.getByRole('img', { name: 'Logo for Bostedet Solsikken' })
  await expect(logo).toBeVisible()
  expect(await logo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true)
  // Scaled to fit its box, never cropped, and the box lies within the screen.
  expect(await logo.evaluate((image) => getComputedStyle(image).objectFit)).toBe('contain')
  const box = await logo.boundingBox()
  expect(box !== null && box.x >= 0 && box.x + box.width <= (page.viewportSize()?.width ?? 0)).toBe(true)
})

test('Admin is in the user menu for the admin only', SHELL, async ({ page }) => {
  await signIn(page, ACCOUNTS.admin.email)
  await expect(await openUserMenu(page, ACCOUNTS.admin.name)).toHaveText([
    'Indstillinger',
    'Admin',
    'Skift adgangskode',
    'Log ud',
    'Log ud på alle enheder',
  ])
  await chooseFromUserMenu(page, ACCOUNTS.admin.name, 'Admin')
  await expect(page).toHaveURL(/\/admin$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Administration' })).toBeVisible()

  for (const account of [ACCOUNTS.superuser, ACCOUNTS.employee]) {
    await page.context().clearCookies()
    await signIn(page, account.email)
    await expect(await openUserMenu(page, account.name)).toHaveText([
      'Indstillinger',
      'Skift adgangskode',
      'Log ud',
      'Log ud på alle enheder',
    ])
  }
})

test('on a narrow screen one menu button holds the nav links and the user menu', { tag: '@narrow' }, async ({
  page,
}) => {
  await signIn(page, ACCOUNTS.superuser.email)
  const button = menuButton(page)
  await expect(button).toHaveAttribute('aria-expanded', 'false')
  await expect(page.getByRole('navigation', { name: 'Hovedmenu' })).toHaveCount(0)
  // The active location stays in the bar, switchable without opening the menu.
  await expect(page.getByRole('banner').getByRole('combobox', { name: 'Lokation' })).toBeVisible()
  await button.click()
  const panel = page.locator(`[id="${await button.getAttribute('aria-controls')}"]`)
  await expect(panel).toBeVisible()
  await expect(panel.getByRole('navigation', { name: 'Hovedmenu' }).getByRole('link')).toHaveText([
    'Dagsoversigt',
    'Dagbøger',
    'Statistik',
  ])
  // The open panel fits the screen.
  const box = await panel.boundingBox()
  expect(box !== null && box.x >= 0 && box.x + box.width <= (page.viewportSize()?.width ?? 0)).toBe(true)
  // A tap outside (below the panel) closes it.
  await page.mouse.click(20, (page.viewportSize()?.height ?? 0) - 20)
  await expect(button).toHaveAttribute('aria-expanded', 'false')
  await expect(panel).toBeHidden()
})

test('on a narrow screen the menu works by keyboard: focus moves in, Escape returns it', { tag: '@narrow' }, async ({
  page,
}) => {
  await signIn(page, ACCOUNTS.employee.email)
  const button = menuButton(page)
  await button.focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('link', { name: 'Dagsoversigt', exact: true })).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(button).toBeFocused()
  await expect(button).toHaveAttribute('aria-expanded', 'false')
  await page.keyboard.press('Enter')
  // Tab order: the three nav links, then Indstillinger.
  for (const name of ['Dagbøger', 'Statistik', 'Indstillinger']) {
    await page.keyboard.press('Tab')
    await expect(page.getByRole('link', { name })).toBeFocused()
  }
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/settings\/persons$/)
  await expect(page.getByRole('heading', { name: 'Borgere' })).toBeVisible()
  await expect(button).toHaveAttribute('aria-expanded', 'false')
})

/** The targets smaller than 44 × 44 px (WCAG 2.5.5), described for the failure message. */
async function tooSmallForTouch(targets: Locator[]): Promise<string[]> {
  const small: string[] = []
  for (const target of targets) {
    const box = await target.boundingBox()
    if (box === null || box.height < 44 || box.width < 44) {
      small.push(`${await target.evaluate((element) => element.outerHTML.slice(0, 60))}: ${box?.width}×${box?.height}`)
    }
  }
  return small
}

test('the narrow header and the page tabs are at least 44 px for touch', { tag: '@narrow' }, async ({ page }) => {
  await signIn(page, ACCOUNTS.admin.email)
  const header = page.getByRole('banner')
  const targets = [
    header.getByRole('link', { name: /Bosted/ }),
    header.getByRole('combobox', { name: 'Lokation' }),
    menuButton(page),
  ]
  await menuButton(page).click()
  targets.push(
    ...(await header.getByRole('link').all()),
    header.getByRole('button', { name: 'Log ud', exact: true }),
    header.getByRole('button', { name: 'Log ud på alle enheder' }),
  )
  expect(await tooSmallForTouch(targets)).toEqual([])

  await page.goto('/person/demo-borger01/settings/general')
  await expect(page.getByRole('heading', { name: 'Generelt', exact: true })).toBeVisible()
  expect(await tooSmallForTouch(await page.getByRole('main').getByRole('navigation').getByRole('link').all())).toEqual(
    [],
  )
})

test('Indstillinger leads to /settings/persons, also by keyboard (the wide menu)', async ({ page }) => {
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

test('the background panel with its shadow slides in after 48 px of scrolling', SHELL, async ({ page }) => {
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

test('Log ud goes to /login and back-navigation stays out', SHELL, async ({ page }) => {
  await signIn(page, ACCOUNTS.employee.email)
  await (await mainNav(page)).getByRole('link', { name: 'Dagbøger' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Dagbøger' })).toBeVisible()
  await chooseFromUserMenu(page, ACCOUNTS.employee.name, 'Log ud')
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
  await chooseFromUserMenu(page, ACCOUNTS.employee.name, 'Log ud')
  await expect(page.getByText('An error occurred during logout.')).toBeVisible()
  await expect(page).toHaveURL(/\/daily$/)
  // Toasts sit top-center (REQ-CONST-5).
  const toaster = page.locator('[data-sonner-toaster]')
  await expect(toaster).toHaveAttribute('data-y-position', 'top')
  await expect(toaster).toHaveAttribute('data-x-position', 'center')
})
