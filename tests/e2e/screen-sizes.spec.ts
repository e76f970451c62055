/// <reference lib="dom" />
import { ACCOUNTS, expect, isNarrow, menuButton, PROTECTED_PAGES, signIn, test } from './fixtures.ts'

/** How far the page reaches past the right edge of the screen, in px (0: no sideways scrolling). */
const overflow = (page: import('@playwright/test').Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)

test('no page scrolls sideways, the sign-in page and every signed-in route', { tag: '@shell' }, async ({ page }) => {
  await page.goto('/login')
  await expect(page.getByRole('heading', { level: 1, name: 'Log ind' })).toBeVisible()
  const wide: string[] = []
  if ((await overflow(page)) > 0) wide.push(`/login: ${await overflow(page)} px`)

  // The admin sees every route, the location switcher and the longest user menu.
  await signIn(page, ACCOUNTS.admin.email)
  // A full load of each route: pages that share a heading (the person's) are told apart by their child's.
  for (const [path, heading, child] of PROTECTED_PAGES) {
    await page.goto(path)
    await expect(page.getByRole('heading', { level: 1, name: heading }), path).toBeVisible()
    if (child !== undefined) await expect(page.getByRole('heading', { name: child, exact: true }), path).toBeVisible()
    const px = await overflow(page)
    if (px > 0) wide.push(`${path}: ${px} px`)
  }
  if (isNarrow(page)) {
    await menuButton(page).click()
    const px = await overflow(page)
    if (px > 0) wide.push(`open menu: ${px} px`)
  }
  expect(wide).toEqual([])
})

test('the header fits from 320 px up, and at the width where the menu unfolds', { tag: '@shell' }, async ({ page }) => {
  await signIn(page, ACCOUNTS.admin.email)
  // The narrowest phone in use, and both sides of the narrow header's 1024 px breakpoint.
  const widths = isNarrow(page) ? [320] : [1023, 1024]
  const wide: string[] = []
  for (const width of widths) {
    await page.setViewportSize({ width, height: 800 })
    await expect(page.getByRole('combobox', { name: 'Lokation' })).toBeVisible()
    const px = await overflow(page)
    if (px > 0) wide.push(`${width} px wide: ${px} px too wide`)
    // Every control of the bar lies on the screen.
    const boxes = await page
      .getByRole('banner')
      .locator('a, button, select, img')
      .evaluateAll((elements) =>
        elements
          .filter((element) => element.getClientRects().length > 0)
          .map((element) => ({ html: element.outerHTML.slice(0, 50), right: element.getBoundingClientRect().right })),
      )
    for (const box of boxes) if (box.right > width) wide.push(`${width} px wide: ${box.html} ends at ${box.right}`)
  }
  expect(wide).toEqual([])
})
