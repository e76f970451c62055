/// <reference lib="dom" />
import { ACCOUNTS, expect, PROTECTED_PATHS, signIn, test } from './fixtures.ts'

test('without a session every protected route sends the user to /login', async ({ page }) => {
  for (const path of PROTECTED_PATHS) {
    await page.goto(path)
    await expect(page, `${path} should redirect`).toHaveURL(/\/login$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Log ind' })).toBeVisible()
    await expect(page.getByRole('navigation', { name: 'Hovedmenu' })).toHaveCount(0)
  }
})

test('a forged session cookie is rejected and the user lands on /login', async ({ page, context, baseURL }) => {
  await context.addCookies([
    { name: 'session', value: 'forged.jwt.value', url: baseURL as string },
    { name: 'userId', value: 'demo-admin', url: baseURL as string },
  ])
  await page.goto('/daily')
  await expect(page).toHaveURL(/\/login$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Log ind' })).toBeVisible()
})

test('an unknown route shows the 404 page with its path', async ({ page }) => {
  await signIn(page, ACCOUNTS.employee.email)
  await page.goto('/this/does/not/exist')
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible()
  await expect(page.getByText('Page Not Found: /this/does/not/exist')).toBeVisible()
})

test('a route whose id fails its rule shows the 404 page', async ({ page }) => {
  await signIn(page, ACCOUNTS.employee.email)
  await page.goto('/admin/person/bad!id/settings')
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible()
  await expect(page.getByText('Page Not Found: /admin/person/bad!id/settings')).toBeVisible()
})

test('a signed-in user reaches every route of the spec, each with its heading', async ({ page }) => {
  await signIn(page, ACCOUNTS.admin.email)
  for (const path of PROTECTED_PATHS) {
    await page.goto(path)
    await expect(page.getByRole('heading', { level: 1 }), path).toBeVisible()
    await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toHaveCount(0)
    await expect(page).not.toHaveURL(/\/login$/)
  }
})
