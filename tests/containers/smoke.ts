import { type Browser, chromium, type Page } from '@playwright/test'
import playwrightConfig from '../playwright.config.ts'

export const ADMIN = { email: 'admin@demo.dk', password: 'demo1234' }

/** One seeded account per staff role, with the name its header shows (as tests/e2e/fixtures.ts). */
export const ROLE_ACCOUNTS = [
  { role: 'admin', email: 'admin@demo.dk', name: 'Birgitte Holm' },
  { role: 'superuser', email: 'superbruger@demo.dk', name: 'Jesper Kjær' },
  { role: 'employee', email: 'medarbejder@demo.dk', name: 'Signe Dahl' },
]

/** One page per area: the header's three links, then the user menu's areas by their routes. */
export const HEADER_AREAS = [
  { label: 'Dagsoversigt', path: '/daily' },
  { label: 'Dagbøger', path: '/notes' },
  { label: 'Statistik', path: '/statistics' },
]
export const MENU_AREAS = ['/settings/persons', '/admin']

/** Debian's chromium with the flags of the end-to-end suite (tests/playwright.config.ts). */
export function launchChromium(): Promise<Browser> {
  const launchOptions = playwrightConfig.projects?.[0]?.use?.launchOptions
  return chromium.launch(launchOptions)
}

async function expectPage(page: Page, path: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === path, { timeout: 15_000 })
  await page.getByRole('heading', { level: 1 }).first().waitFor({ state: 'visible', timeout: 15_000 })
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText(), the text a user sees
  const text = await page.locator('body').innerText()
  for (const failure of ['Page Not Found', 'Internal Server Error']) {
    if (text.includes(failure)) throw new Error(`${path} shows '${failure}'`)
  }
}

/** A Danish page on the stack that collects every console error and uncaught exception. */
async function watchedPage(browser: Browser, baseUrl: string) {
  const context = await browser.newContext({ baseURL: baseUrl, locale: 'da-DK', timezoneId: 'Europe/Copenhagen' })
  const page = await context.newPage()
  const consoleErrors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text())
  })
  page.on('pageerror', (error) => consoleErrors.push(error.message))
  return { context, page, consoleErrors }
}

/**
 * One role's sign-in in a fresh browser context: /login, the daily overview, the user's name on the
 * header's user menu, and no console error on the way. Throws with what is wrong.
 */
export async function signInAs(
  browser: Browser,
  baseUrl: string,
  account: { role: string; email: string; name: string },
): Promise<void> {
  const { context, page, consoleErrors } = await watchedPage(browser, baseUrl)
  try {
    await page.goto('/login')
    await page.getByLabel('Email').fill(account.email)
    await page.getByLabel('Adgangskode').fill(ADMIN.password)
    await page.getByRole('button', { name: 'Log ind' }).click()
    await expectPage(page, '/daily')
    await page
      .getByRole('banner')
      .getByRole('button', { name: new RegExp(account.name) })
      .first()
      .waitFor({ state: 'visible', timeout: 10_000 })
    if (consoleErrors.length > 0) throw new Error(`${account.role}: console errors:\n${consoleErrors.join('\n')}`)
  } catch (error) {
    throw new Error(`${account.role} (${account.email}): ${error instanceof Error ? error.message : String(error)}`)
  } finally {
    await context.close()
  }
}

/**
 * QA's smoke journey against a running stack: an unauthenticated visit lands on /login, the admin
 * signs in, the header shows its three labels, and one page per area renders without an error page
 * or a console error. Throws with the first thing that is wrong.
 */
export async function runSmokeJourney(browser: Browser, baseUrl: string): Promise<void> {
  const { context, page, consoleErrors } = await watchedPage(browser, baseUrl)
  try {
    await page.goto('/daily')
    await page.waitForURL((url) => url.pathname === '/login', { timeout: 15_000 })
    await page.getByLabel('Email').fill(ADMIN.email)
    await page.getByLabel('Adgangskode').fill(ADMIN.password)
    await page.getByRole('button', { name: 'Log ind' }).click()
    await expectPage(page, '/daily')

    const header = page.getByRole('banner')
    for (const { label, path } of HEADER_AREAS) {
      const link = header.getByRole('link', { name: label, exact: true })
      const href = await link.getAttribute('href', { timeout: 10_000 })
      if (href !== path) throw new Error(`the header link '${label}' points at ${href}, not ${path}`)
    }
    for (const { label, path } of HEADER_AREAS) {
      await header.getByRole('link', { name: label, exact: true }).click()
      await expectPage(page, path)
    }
    for (const path of MENU_AREAS) {
      await page.goto(path)
      await expectPage(page, path)
    }
    if (consoleErrors.length > 0) throw new Error(`console errors:\n${consoleErrors.join('\n')}`)
  } finally {
    await context.close()
  }
}
