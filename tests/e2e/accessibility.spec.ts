/// <reference lib="dom" />
import { ACCOUNTS, expect, menuButton, seriousA11yViolations, signIn, test, userMenuButton } from './fixtures.ts'

// axe is injected as a script tag, which the app's CSP (script-src 'self') would block.
test.use({ bypassCSP: true })

test('the sign-in page has no serious or critical accessibility violations', async ({ page }) => {
  await page.goto('/login')
  await expect(page.getByRole('button', { name: 'Log ind' })).toBeEnabled()
  expect(await seriousA11yViolations(page)).toEqual([])
  await page.getByRole('button', { name: 'Log ind' }).click()
  await expect(page.getByText('Email er påkrævet')).toBeVisible()
  expect(await seriousA11yViolations(page)).toEqual([])
})

test('the shell (header, open user menu, page) has no serious or critical accessibility violations', async ({
  page,
}) => {
  await signIn(page, ACCOUNTS.admin.email)
  expect(await seriousA11yViolations(page)).toEqual([])
  await userMenuButton(page, ACCOUNTS.admin.name).click()
  await expect(page.getByRole('menu')).toBeVisible()
  expect(await seriousA11yViolations(page)).toEqual([])
  await page.goto('/no/such/page')
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible()
  expect(await seriousA11yViolations(page)).toEqual([])
})

test('the narrow header, folded and with its menu open, has no serious or critical accessibility violations', {
  tag: '@narrow',
}, async ({ page }) => {
  await signIn(page, ACCOUNTS.admin.email)
  await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false')
  expect(await seriousA11yViolations(page)).toEqual([])
  await menuButton(page).click()
  await expect(page.getByRole('navigation', { name: 'Hovedmenu' })).toBeVisible()
  expect(await seriousA11yViolations(page)).toEqual([])
})
