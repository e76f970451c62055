import { ACCOUNTS, expect, signIn, test } from './fixtures.ts'

// A deliberately broken journey, present only with E2E_CANARY_FAIL=1: it proves that a failing
// journey fails the run (`make test-e2e-containers`, its exit code) with its name in the output.
// Tagged @tablet: it runs in the desktop and the tablet projects.
if (process.env.E2E_CANARY_FAIL === '1') {
  test('canary: a deliberately broken journey (E2E_CANARY_FAIL=1) fails the run @tablet', async ({ page }) => {
    await signIn(page, ACCOUNTS.employee.email)
    await expect(page.getByRole('heading', { level: 1, name: 'Dagsoversigt' })).toBeVisible()
    // Broken on purpose: the daily overview is not the diary page.
    await expect(page.getByRole('heading', { level: 1, name: 'Dagbøger' })).toBeVisible({ timeout: 2000 })
  })
}
