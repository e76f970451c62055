/// <reference lib="dom" />
import { ACCOUNTS, expect, failedRequest, signIn, test, userMenuButton } from './fixtures.ts'

/** The browser's own line for the Auth emulator refusing a password sign-in. */
const SIGN_IN_REFUSED = failedRequest(400, '/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword')

for (const [role, account] of Object.entries(ACCOUNTS)) {
  test(`a ${role} signs in and sees their name in the header`, { tag: '@shell' }, async ({ page }) => {
    await signIn(page, account.email)
    await expect(userMenuButton(page, account.name)).toBeVisible()
    const cookies = await page.context().cookies()
    expect(cookies.find((cookie) => cookie.name === 'session')?.httpOnly).toBe(true)
    expect(cookies.find((cookie) => cookie.name === 'userId')?.value).toBeTruthy()
  })
}

test('a wrong password shows a Danish message and stays on /login', async ({ page, allowConsoleErrors }) => {
  allowConsoleErrors(SIGN_IN_REFUSED)
  await page.goto('/login')
  await page.getByLabel('Email').fill(ACCOUNTS.employee.email)
  await page.getByLabel('Adgangskode').fill('wrong-password')
  await page.getByRole('button', { name: 'Log ind' }).click()
  await expect(page.getByRole('alert')).toHaveText('Forkert email eller adgangskode.')
  await expect(page).toHaveURL(/\/login$/)
})

test('an unknown email shows a Danish message', async ({ page, allowConsoleErrors }) => {
  allowConsoleErrors(SIGN_IN_REFUSED)
  await page.goto('/login')
  await page.getByLabel('Email').fill('nobody@demo.dk')
  await page.getByLabel('Adgangskode').fill('demo1234')
  await page.getByRole('button', { name: 'Log ind' }).click()
  await expect(page.getByRole('alert')).toHaveText('Der findes ingen bruger med denne email.')
})

test('empty fields are named before anything is sent', async ({ page }) => {
  await page.goto('/login')
  await page.getByRole('button', { name: 'Log ind' }).click()
  await expect(page.getByText('Email er påkrævet')).toBeVisible()
  await expect(page.getByText('Adgangskode er påkrævet')).toBeVisible()
})

test('a network failure during sign-in says so in Danish', async ({ page, allowConsoleErrors }) => {
  allowConsoleErrors(/Failed to load resource|ERR_FAILED|net::/)
  await page.goto('/login')
  await page.route('**/identitytoolkit.googleapis.com/**', (route) => route.abort('failed'))
  await page.getByLabel('Email').fill(ACCOUNTS.employee.email)
  await page.getByLabel('Adgangskode').fill('demo1234')
  await page.getByRole('button', { name: 'Log ind' }).click()
  await expect(page.getByRole('alert')).toHaveText(
    'Der er ingen forbindelse til serveren. Tjek din internetforbindelse, og prøv igen.',
  )
})

test('the sign-in page has no header and no vertical padding', async ({ page }) => {
  await page.goto('/login')
  await expect(page.getByRole('banner')).toHaveCount(0)
  const padding = await page
    .locator('main')
    .evaluate((main) => [getComputedStyle(main).paddingTop, getComputedStyle(main).paddingBottom])
  expect(padding).toEqual(['0px', '0px'])
})

test('the sign-in page loads no Firestore or Storage code', async ({ page }) => {
  const scripts: string[] = []
  page.on('response', async (response) => {
    if (response.request().resourceType() === 'script') scripts.push(await response.text())
  })
  await page.goto('/login')
  await expect(page.getByRole('button', { name: 'Log ind' })).toBeEnabled()
  await page.waitForLoadState('networkidle')
  expect(scripts.length).toBeGreaterThan(0)
  for (const script of scripts) {
    expect(script).not.toContain('firestore.googleapis.com')
    expect(script).not.toContain('firebasestorage.googleapis.com')
  }
})

test('a disabled user is told so in Danish', async ({ page, allowConsoleErrors }) => {
  allowConsoleErrors(SIGN_IN_REFUSED)
  const email = `disabled-${Date.now()}@demo.dk`
  await createAuthUser(email, { disabled: true })
  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Adgangskode').fill('demo1234')
  await page.getByRole('button', { name: 'Log ind' }).click()
  await expect(page.getByRole('alert')).toHaveText('Din bruger er deaktiveret. Kontakt din administrator.')
})

/** Creates an account straight in the Auth emulator (its REST API, as the emulator's owner). */
async function createAuthUser(email: string, options: { disabled: boolean }): Promise<void> {
  const host = process.env.FIREBASE_AUTH_EMULATOR_HOST
  const project = process.env.FIREBASE_PROJECT_ID
  if (!host || !project) throw new Error('the e2e global setup did not export the Auth emulator host')
  const base = `http://${host}/identitytoolkit.googleapis.com/v1/projects/${project}`
  const headers = { authorization: 'Bearer owner', 'content-type': 'application/json' }
  const created = await fetch(`${base}/accounts`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, password: 'demo1234' }),
  })
  expect(created.status).toBe(200)
  const { localId } = (await created.json()) as { localId: string }
  const updated = await fetch(`${base}/accounts:update`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ localId, disableUser: options.disabled }),
  })
  expect(updated.status).toBe(200)
}
