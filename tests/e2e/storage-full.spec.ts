import { ACCOUNTS, expect, failedRequest, seriousA11yViolations, signIn, test } from './fixtures.ts'

// axe is injected as a script tag, which the app's CSP (script-src 'self') would block.
test.use({ bypassCSP: true })

const NOTICE =
  'Intet kan gemmes lige nu: serveren har ikke mere plads. Det, du skriver, bliver ikke gemt. Sig det til jeres it-ansvarlige.'

test('staff are told that nothing can be saved while the api reports the backend degraded, and the notice goes when it recovers', async ({
  page,
  allowConsoleErrors,
}) => {
  // The api's answer on a full disk (api/src/routes/health): staged here, the backend itself is fine.
  let degraded = true
  await page.route('**/api/health', async (route) => {
    if (!degraded) return route.continue()
    await route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ status: 'degraded', reason: 'Firestore refuses writes (RESOURCE_EXHAUSTED)', checks: {} }),
    })
  })
  allowConsoleErrors(failedRequest(503, '/api/health'))
  await signIn(page, ACCOUNTS.employee.email)
  const notice = page.getByRole('alert').filter({ hasText: NOTICE })
  await expect(notice).toBeVisible()
  expect(await seriousA11yViolations(page)).toEqual([])

  degraded = false
  // The shell asks every 30 s; a reload asks at once.
  const healthy = page.waitForResponse((response) => response.url().endsWith('/api/health') && response.ok())
  await page.reload()
  await healthy
  await expect(page.getByRole('heading', { level: 1, name: 'Dagsoversigt' })).toBeVisible()
  await expect(notice).toHaveCount(0)
})
