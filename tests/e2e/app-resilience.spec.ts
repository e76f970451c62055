/// <reference lib="dom" />
import { ACCOUNTS, expect, signIn, test } from './fixtures.ts'

test('the nav links fetch their pages’ code as soon as they are visible', async ({ page }) => {
  const scripts: string[] = []
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname)
  })
  await signIn(page, ACCOUNTS.employee.email)
  // Nothing was clicked: the notes and statistics code came by prefetch.
  await expect.poll(() => scripts.some((path) => /^\/assets\/notes-/.test(path))).toBe(true)
  await expect.poll(() => scripts.some((path) => /^\/assets\/statistics-/.test(path))).toBe(true)
})

test('after a failed page chunk the app reloads once, and not again within 10 s', async ({
  page,
  allowConsoleErrors,
}) => {
  allowConsoleErrors(/Failed to load resource|dynamically imported module|net::ERR_FAILED|Internal Server Error/i)
  await signIn(page, ACCOUNTS.employee.email)
  // A deploy removed the old chunks: the code of /notes now fails to load.
  await page.route(/\/assets\/notes-[^/]+\.js$/, (route) => route.abort('failed'))
  let loads = 0
  page.on('load', () => {
    loads += 1
  })
  await page.goto('/notes')
  await expect(page.getByRole('heading', { level: 1, name: 'Internal Server Error' })).toBeVisible()
  // The visit itself (1) plus the one automatic reload after the failed chunk (2); no third.
  await page.waitForTimeout(2000)
  expect(loads).toBe(2)
  await expect(page.getByRole('heading', { level: 1, name: 'Internal Server Error' })).toBeVisible()
})
