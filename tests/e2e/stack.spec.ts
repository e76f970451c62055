import { expect, test } from '@playwright/test'

test('the app serves its runtime configuration pointing at the emulators', async ({ request }) => {
  const response = await request.get('/config.json')
  expect(response.status()).toBe(200)
  expect(response.headers()['cache-control']).toContain('no-cache')
  const config = await response.json()
  expect(config.firebase.projectId).toBe('demo-bosted')
  expect(config.emulators.auth).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  expect(config.emulators.firestore).toMatch(/^127\.0\.0\.1:\d+$/)
})

test('the api is reachable through the app origin and reports its dependencies healthy', async ({ request }) => {
  const response = await request.get('/api/health')
  expect(response.status()).toBe(200)
})

test('every response carries the security headers', async ({ request }) => {
  const headers = (await request.get('/')).headers()
  expect(headers['x-content-type-options']).toBe('nosniff')
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'")
})

test('an unknown path falls back to the single-page app', async ({ request }) => {
  const response = await request.get('/some/deep/link')
  expect(response.status()).toBe(200)
  expect(await response.text()).toContain('<div id="root">')
})
