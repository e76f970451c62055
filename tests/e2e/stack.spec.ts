import { existsSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { skipReason } from './target-skips.ts'

// This file does not use fixtures.ts: the journeys its target cannot run are skipped here, by name.
test.beforeEach(({ baseURL: _baseURL }, testInfo) => {
  const reason = skipReason(testInfo.file, testInfo.title)
  testInfo.skip(reason !== undefined, reason)
})

/** The host /config.json names for the emulators: the native stack's, or the target's (E2E_PUBLIC_HOST). */
const publicHost = (process.env.E2E_PUBLIC_HOST ?? '127.0.0.1').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

test('the app serves its runtime configuration pointing at the emulators', async ({ request }) => {
  const response = await request.get('/config.json')
  expect(response.status()).toBe(200)
  expect(response.headers()['cache-control']).toContain('no-cache')
  const config = await response.json()
  expect(config.firebase.projectId).toBe('demo-bosted')
  expect(config.emulators.auth).toMatch(new RegExp(`^http://${publicHost}:\\d+$`))
  expect(config.emulators.firestore).toMatch(new RegExp(`^${publicHost}:\\d+$`))
  expect(config.emulators.storage).toMatch(new RegExp(`^${publicHost}:\\d+$`))
})

test('every response carries the security headers: the page, /config.json, a hashed asset and the api', async ({
  request,
}) => {
  const html = await (await request.get('/')).text()
  const asset = html.match(/\/assets\/[^"]+\.js/)?.[0] as string
  expect(asset).toBeDefined()
  for (const path of ['/', '/daily', '/config.json', asset, '/api/health']) {
    const headers = (await request.get(path)).headers()
    expect(headers['x-content-type-options'], path).toBe('nosniff')
    expect(headers['referrer-policy'], path).toBe('strict-origin-when-cross-origin')
    expect(headers['content-security-policy'], path).toContain("frame-ancestors 'none'")
    expect(headers['content-security-policy'], path).toMatch(new RegExp(`connect-src 'self' http://${publicHost}:\\d+`))
  }
})

test('a missing hashed asset is a 404, never the app, and is not cached', async ({ request }) => {
  const response = await request.get('/assets/missing-0123abcd.js')
  expect(response.status()).toBe(404)
  expect(response.headers()['cache-control']).toBeUndefined()
})

test('an unknown path falls back to the single-page app', async ({ request }) => {
  const response = await request.get('/some/deep/link')
  expect(response.status()).toBe(200)
  expect(await response.text()).toContain('<div id="root">')
})

test('the built app renders in the browser with its runtime configuration', async ({ page }) => {
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  await page.goto('/')
  // Without a session the app sends the browser to its sign-in page, in Danish from the domain catalogue.
  await expect(page).toHaveURL(/\/login$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Log ind' })).toBeVisible()
  // A complete runtime configuration: no 'missing configuration' message, the form is usable.
  await expect(page.getByText(/mangler sin opsætning/)).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Log ind' })).toBeEnabled()
  expect(errors).toEqual([])
})

/**
 * Which server the e2e stack chose (global-setup.ts): nginx when installed, unless WEB_SERVER=node.
 * The Compose stack's and a pilot's web image is nginx (E2E_TARGET, tests/e2e/target.ts).
 */
const servedByNginx = () => process.env.E2E_WEB_SERVER === 'nginx'
const expectedServer = () =>
  process.env.E2E_TARGET || (existsSync('/usr/sbin/nginx') && process.env.WEB_SERVER !== 'node') ? 'nginx' : 'node'

test('the app is served by nginx when it is installed, else by the Node fallback', async ({ request }) => {
  const response = await request.get('/', { headers: { 'accept-encoding': 'gzip' } })
  expect(process.env.E2E_WEB_SERVER).toBe(expectedServer())
  if (servedByNginx()) {
    expect(response.headers().server).toBe('nginx')
  } else {
    expect(response.headers().server).toBeUndefined()
  }
  expect(response.headers()['cache-control']).toBe('no-cache')
})

test('hashed assets are cached for a year and compressed', async ({ request }) => {
  const html = await (await request.get('/')).text()
  const asset = html.match(/\/assets\/[^"]+\.js/)?.[0]
  expect(asset).toBeDefined()
  const response = await request.get(asset as string, { headers: { 'accept-encoding': 'gzip' } })
  expect(response.status()).toBe(200)
  expect(response.headers()['cache-control']).toBe('public, max-age=31536000, immutable')
  if (servedByNginx()) expect(response.headers()['content-encoding']).toBe('gzip')
})
