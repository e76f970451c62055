/// <reference lib="dom" />
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { test as base, expect, type Locator, type Page } from '@playwright/test'
import { skipReason } from './target-skips.ts'

export { expect }

export const DEMO_PASSWORD = 'demo1234'
/**
 * What a journey types when it gives an account a password: one every policy accepts (a pilot's too:
 * 12 characters or more, not a common one, not the e-mail; ADR 0023), so the journey runs against a
 * pilot as against the demo stack.
 */
export const CHOSEN_PASSWORD = 'Havtorn-Kaffe-1947'
/** A temporary password a superuser sets, as accepted by every policy. */
export const TEMPORARY_PASSWORD = 'Midlertidig-Havtorn-77'
export const ACCOUNTS = {
  admin: { email: 'admin@demo.dk', name: 'Birgitte Holm' },
  superuser: { email: 'superbruger@demo.dk', name: 'Jesper Kjær' },
  employee: { email: 'medarbejder@demo.dk', name: 'Signe Dahl' },
} as const

/**
 * The routes of REQ-ROUTE that need a session, one concrete path each with the page's headings:
 * [path, level-1 heading, level-2 heading of a child page].
 */
export const PROTECTED_PAGES: [path: string, heading: string, child?: string][] = [
  ['/', 'Dagsoversigt'],
  ['/daily', 'Dagsoversigt'],
  ['/notes', 'Dagbøger'],
  ['/statistics', 'Statistik', 'Oversigt'],
  ['/statistics/statistics', 'Statistik', 'Oversigt'],
  ['/settings', 'Indstillinger', 'Borgere'],
  ['/settings/answers', 'Indstillinger', 'Svarmuligheder'],
  ['/settings/notifications', 'Indstillinger', 'Notifikationer'],
  ['/settings/persons', 'Indstillinger', 'Borgere'],
  ['/settings/users', 'Indstillinger', 'Brugere'],
  ['/person/demo-borger01', 'Borger', 'Dagsoversigt for borger'],
  ['/person/demo-borger01/daily', 'Borger', 'Dagsoversigt for borger'],
  ['/person/demo-borger01/notes', 'Borger', 'Dagbøger for borger'],
  ['/person/demo-borger01/settings', 'Borger', 'Indstillinger for borger'],
  ['/person/demo-borger01/settings/general', 'Borger', 'Generelt'],
  ['/person/demo-borger01/settings/answers', 'Borger', 'Svarmuligheder'],
  ['/person/demo-borger01/settings/notifications', 'Borger', 'Notifikationer'],
  ['/person/demo-borger01/settings/settings', 'Borger', 'Funktioner'],
  ['/create/person', 'Opret borger', 'Generelt'],
  ['/create/person/general', 'Opret borger', 'Generelt'],
  ['/create/person/answers', 'Opret borger', 'Svarmuligheder'],
  ['/create/person/settings', 'Opret borger', 'Indstillinger'],
  ['/create/user', 'Opret bruger', 'Generelt'],
  ['/create/user/general', 'Opret bruger', 'Generelt'],
  ['/admin', 'Administration'],
  ['/admin/location/solsikken/general', 'Lokation', 'Generelt'],
  ['/admin/location/solsikken/features', 'Lokation', 'Funktioner'],
  ['/admin/location/region/nord/solsikken/subscription', 'Lokation', 'Abonnement'],
  ['/admin/person/demo-borger01/settings', 'Borgerindstillinger'],
]

type Fixtures = {
  /**
   * Console errors a test expects, matched against the text followed by ` [url]` of its source (e.g.
   * the browser's own line for a 400 from the Auth emulator).
   */
  allowConsoleErrors: (pattern: RegExp) => void
}

/** Every test fails on an unexpected console.error or uncaught page error. */
export const test = base.extend<Fixtures & { consoleGuard: undefined; targetSkip: undefined }>({
  // The journeys a target the suite does not start cannot run, by name (target-skips.ts).
  targetSkip: [
    async ({ baseURL: _baseURL }, use, testInfo) => {
      const reason = skipReason(testInfo.file, testInfo.title)
      testInfo.skip(reason !== undefined, reason)
      await use(undefined)
    },
    { auto: true },
  ],
  allowConsoleErrors: async ({ page: _page }, use) => {
    await use((pattern) => allowed.push(pattern))
  },
  consoleGuard: [
    async ({ page }, use) => {
      const errors: string[] = []
      page.on('console', (message) => {
        // The browser's own line for a failed request names no URL in its text; the location does.
        const { url } = message.location()
        if (message.type() === 'error') errors.push(url ? `${message.text()} [${url}]` : message.text())
      })
      page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`))
      await use(undefined)
      const unexpected = errors.filter((text) => !allowed.some((pattern) => pattern.test(text)))
      allowed.length = 0
      expect(unexpected, 'unexpected console errors').toEqual([])
    },
    { auto: true },
  ],
})
const allowed: RegExp[] = []

/**
 * The browser's own console line for a request answered with `status`, as the guard records it
 * (text, then ` [url]`): `path` is the URL's path up to its query, e.g. '/api/auth/logout'.
 */
export function failedRequest(status: number, path: string): RegExp {
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(
    `^Failed to load resource: the server responded with a status of ${status} .*\\[https?://[^/\\]]+${escaped}(\\?[^\\]]*)?\\]$`,
  )
}

export async function signIn(page: Page, email: string, password: string = DEMO_PASSWORD): Promise<void> {
  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Adgangskode').fill(password)
  await page.getByRole('button', { name: 'Log ind' }).click()
  await expect(page).toHaveURL(/\/daily$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Dagsoversigt' })).toBeVisible()
}

/** The user menu's button; on a narrow screen the one menu button, which is named 'Menu {name}'. */
export function userMenuButton(page: Page, name: string) {
  return page.getByRole('button', { name: new RegExp(name) })
}

/**
 * Whether the page shows the narrow header (tablet, phone), where the nav links and the user
 * menu's entries sit behind one menu button. Mirrors COMPACT_HEADER_QUERY in web/src/app/layout.
 */
export function isNarrow(page: Page): boolean {
  return (page.viewportSize()?.width ?? 1280) < 1024
}

export function menuButton(page: Page): Locator {
  return page.getByRole('banner').getByRole('button', { name: /^Menu/ })
}

async function openNarrowMenu(page: Page): Promise<void> {
  const button = menuButton(page)
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click()
  await expect(button).toHaveAttribute('aria-expanded', 'true')
}

/** The main navigation, shown first when it sits behind the narrow header's menu button. */
export async function mainNav(page: Page): Promise<Locator> {
  if (isNarrow(page)) await openNarrowMenu(page)
  return page.getByRole('navigation', { name: 'Hovedmenu' })
}

/**
 * Opens the user menu (a menu of menuitems on a wide screen; a list of links and a button in the
 * narrow header's menu) and returns its entries.
 */
export async function openUserMenu(page: Page, name: string): Promise<Locator> {
  if (!isNarrow(page)) {
    const button = userMenuButton(page, name)
    if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click()
    return page.getByRole('menu').getByRole('menuitem')
  }
  await openNarrowMenu(page)
  return page.getByRole('list', { name: `Brugermenu for ${name}` }).locator('a, button')
}

/** Opens the user menu and chooses one of its entries ('Indstillinger', 'Admin', 'Log ud'). */
export async function chooseFromUserMenu(page: Page, name: string, entry: string): Promise<void> {
  const entries = await openUserMenu(page, name)
  await entries.filter({ hasText: new RegExp(`^${entry}$`) }).click()
}

const require = createRequire(import.meta.url)

/**
 * Runs axe-core (WCAG 2.1 A/AA) on the page; returns the serious and critical violations. The app's
 * CSP forbids inline scripts, so specs using this set `bypassCSP` for the injected axe script.
 */
export async function seriousA11yViolations(page: Page): Promise<{ id: string; nodes: string[] }[]> {
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') })
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (options: unknown) => Promise<AxeResults> } }).axe
    const results = await axe.run({ runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
    return results.violations
  })
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({ id: violation.id, nodes: violation.nodes.map((node) => node.html) }))
}
type AxeResults = { violations: { id: string; impact: string | null; nodes: { html: string }[] }[] }

/**
 * Clicks the button that downloads a CSV for Danish Excel, checks the UTF-8 BOM, and returns the
 * file's name and its non-empty lines (CRLF-separated, BOM removed).
 */
export async function downloadCsvLines(page: Page, button: string): Promise<{ name: string; lines: string[] }> {
  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: button }).click()
  const file = await download
  const bytes = await readFile((await file.path()) as string)
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
  const lines = bytes
    .toString('utf8')
    .slice(1)
    .split('\r\n')
    .filter((line) => line !== '')
  return { name: file.suggestedFilename(), lines }
}
