/// <reference lib="dom" />
import type { Locator, Page } from '@playwright/test'
import { ACCOUNTS, expect, isNarrow, signIn, test } from './fixtures.ts'

// Runs at each project's own size (desktop, the tablet and the phone, both by touch), with every
// page's data loaded: a page measured before its rows arrive would hide a table that is too wide.
const PAGES: [path: string, ready: (page: Page) => Locator][] = [
  ['/daily', (p) => p.getByRole('button', { name: /^Registrer for / })],
  ['/person/demo-borger02/daily', (p) => p.getByRole('button', { name: /^Registrer \S+dag den / })],
  ['/notes', (p) => p.getByRole('article')],
  ['/statistics', (p) => p.getByRole('table').getByRole('link')],
  ['/person/demo-borger02/notes', (p) => p.getByRole('article')],
  ['/settings/persons', (p) => p.getByRole('table').getByRole('link')],
  ['/settings/users', (p) => p.getByRole('table').getByRole('row').nth(1)],
  ['/settings/answers', (p) => p.getByRole('button', { name: /^Flyt .* ned$/ })],
  ['/settings/notifications', (p) => p.getByRole('button', { name: 'Gem' })],
  ['/create/person/general', (p) => p.getByLabel('Fornavn')],
  ['/create/person/answers', (p) => p.getByRole('button', { name: 'Tilføj svarmulighed' })],
  ['/create/person/settings', (p) => p.getByLabel('Alle funktioner')],
  ['/create/user/general', (p) => p.getByLabel('Fornavn')],
  ['/person/demo-borger02/settings', (p) => p.getByRole('link', { name: 'Generelt' }).last()],
  ['/person/demo-borger02/settings/general', (p) => p.getByText('Vælg billede')],
  ['/person/demo-borger02/settings/answers', (p) => p.getByLabel('Brug også lokationens svarmuligheder')],
  ['/person/demo-borger02/settings/notifications', (p) => p.getByRole('button', { name: 'Gem' })],
  ['/person/demo-borger02/settings/settings', (p) => p.getByLabel('Alle funktioner')],
]

/** Touch targets under 44 × 44 px in the page's main area. */
const smallTargets = (page: Page) =>
  page.locator('main').evaluate((main) => {
    const controls = main.querySelectorAll<HTMLElement>(
      'button, select, input:not([type="hidden"]), textarea, [role="tab"], a.button',
    )
    const small: string[] = []
    for (const control of controls) {
      if (control.getClientRects().length === 0) continue
      // A checkbox, a radio or a hidden file input is touched through its label.
      const byLabel =
        control instanceof HTMLInputElement &&
        (['checkbox', 'radio'].includes(control.type) || control.classList.contains('visually-hidden'))
      const target = (byLabel ? control.labels?.[0] : null) ?? control
      const box = target.getBoundingClientRect()
      if (box.height < 44 || box.width < 44)
        small.push(`${target.outerHTML.slice(0, 60)} ${Math.round(box.width)}×${Math.round(box.height)}`)
    }
    return small
  })

const ADMIN_PAGES: [path: string, ready: (page: Page) => Locator][] = [
  ['/admin', (p) => p.getByRole('table').getByRole('link')],
  ['/admin/location/solsikken/general', (p) => p.getByText('Vælg logo')],
  ['/admin/location/solsikken/features', (p) => p.getByRole('checkbox').first()],
  ['/admin/location/solsikken/subscription', (p) => p.getByLabel('Beløb (kr.)')],
  ['/admin/person/demo-borger01/settings', (p) => p.getByLabel('Flyt til lokation')],
]

for (const [who, pages] of [
  ['superuser', PAGES],
  ['admin', ADMIN_PAGES],
] as const)
  test(`every page a ${who} uses fits the screen with its data loaded, and on touch its controls are 44 px or more`, {
    tag: '@shell',
  }, async ({ page }) => {
    await signIn(page, ACCOUNTS[who].email)
    expect(await problemsOf(page, pages)).toEqual([])
  })

async function problemsOf(page: Page, pages: typeof PAGES): Promise<string[]> {
  const problems: string[] = []
  for (const [path, ready] of pages) {
    await page.goto(path)
    await expect(ready(page).first(), path).toBeVisible()
    const px = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    if (px > 0) problems.push(`${path}: ${px} px too wide`)
    if (isNarrow(page)) for (const small of await smallTargets(page)) problems.push(`${path}: ${small}`)
  }
  return problems
}

test('a dialog fits the screen and its buttons can be reached', { tag: '@shell' }, async ({ page }) => {
  await signIn(page, ACCOUNTS.employee.email)
  const register = page.getByRole('button', { name: /^Registrer for / }).first()
  await register.click()
  const dialog = page.getByRole('dialog', { name: /^Registrer svar for / })
  await expect(dialog.getByRole('radio').first()).toBeVisible()
  const viewport = page.viewportSize() ?? { width: 0, height: 0 }
  const box = await dialog.boundingBox()
  expect(box).not.toBeNull()
  if (box === null) return
  expect(box.x).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width).toBeLessThanOrEqual(viewport.width)
  expect(box.height).toBeLessThanOrEqual(viewport.height)
  // The last button of a long dialog scrolls into view inside it and closes the dialog.
  const cancel = dialog.getByRole('button', { name: 'Annuller' })
  await cancel.scrollIntoViewIfNeeded()
  await expect(cancel).toBeInViewport()
  await cancel.click()
  await expect(dialog).toBeHidden()
  await expect(register).toBeFocused()
})

test('on a phone a wide table scrolls inside its own box and keeps its first column in view', {
  tag: '@narrow',
}, async ({ page }) => {
  await signIn(page, ACCOUNTS.superuser.email)
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/statistics')
  const box = page.getByRole('region', { name: 'Borgere i perioden' }).and(page.locator('.table-scroll'))
  await expect(box.getByRole('link').first()).toBeVisible()
  const widths = await box.evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }))
  expect(widths.scroll).toBeGreaterThan(widths.client)
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0)
  await box.scrollIntoViewIfNeeded()
  await box.evaluate((element) => element.scrollBy({ left: 400 }))
  const first = box.getByRole('rowheader').first()
  const [boxLeft, cellLeft] = await Promise.all([
    box.evaluate((element) => element.getBoundingClientRect().left),
    first.evaluate((element) => element.getBoundingClientRect().left),
  ])
  expect(await box.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0)
  expect(Math.abs(cellLeft - boxLeft)).toBeLessThanOrEqual(1)
  await expect(first).toBeInViewport()
})
