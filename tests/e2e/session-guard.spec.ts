/// <reference lib="dom" />
import { ACCOUNTS, expect, failedRequest, PROTECTED_PAGES, signIn, test } from './fixtures.ts'

test('without a session every protected route sends the user to /login', async ({ page }) => {
  for (const [path] of PROTECTED_PAGES) {
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
  for (const [path, heading, child] of PROTECTED_PAGES) {
    await page.goto(path)
    await expect(page.getByRole('heading', { level: 1, name: heading, exact: true }), path).toBeVisible()
    if (child !== undefined) {
      await expect(page.getByRole('heading', { name: child, exact: true }), path).toBeVisible()
    }
    await expect(page).not.toHaveURL(/\/login$/)
  }
})

test('a remembered user whose session was revoked elsewhere is sent to /login on the next start', async ({
  page,
  context,
  playwright,
  baseURL,
  allowConsoleErrors,
}) => {
  await signIn(page, ACCOUNTS.employee.email)
  const cookies = await context.cookies()
  const header = cookies.map(({ name, value }) => `${name}=${value}`).join('; ')
  // Another device signs out: the api revokes the session, while this browser keeps its cookies.
  const other = await playwright.request.newContext({ baseURL })
  const logout = await other.post('/api/auth/logout', {
    headers: { cookie: header, origin: new URL(baseURL as string).origin },
  })
  expect(logout.status()).toBe(200)
  await other.dispose()
  expect((await context.cookies()).map(({ name }) => name).sort()).toEqual(['session', 'userId'])

  // The browser logs the api's refusal of the stale session, and the Auth SDK's reload of its stored
  // user is refused too once the revocation is seen (Firebase counts it in whole seconds, so only
  // when sign-in and revocation fell in different seconds). The app must only go to /login.
  allowConsoleErrors(failedRequest(401, '/api/user/getUserById'))
  allowConsoleErrors(failedRequest(400, '/identitytoolkit.googleapis.com/v1/accounts:lookup'))
  // Once the SDK has dropped the revoked user, the security rules refuse the profile read it still tries.
  allowConsoleErrors(failedRequest(403, '/v1/projects/demo-bosted/databases/(default)/documents:batchGet'))
  await page.reload()
  await expect(page).toHaveURL(/\/login$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Log ind' })).toBeVisible()
  await page.goto('/daily')
  await expect(page).toHaveURL(/\/login$/)
})

test('an administrator whose claims read was cut off still reaches /admin on the next page', async ({
  page,
  allowConsoleErrors,
}) => {
  // The read of the claims right after signing in fails (as when the page is left while it runs):
  // the app only warns, and the user it keeps in local storage has no admin flag.
  await page.route('**/api/user/getUserById?**', (route) => route.abort('aborted'), { times: 1 })
  allowConsoleErrors(/^Failed to load resource: net::ERR_(ABORTED|FAILED)/)
  await signIn(page, ACCOUNTS.admin.email)
  // The next page is a new app start: /admin decides on the claims it reads now, not the stored copy.
  await page.goto('/admin')
  await expect(page.getByRole('heading', { level: 1, name: 'Administration' })).toBeVisible()
})
