/// <reference lib="dom" />
import { expect, signIn, test } from './fixtures.ts'
import { createOwnLocation } from './own-location.ts'
import { allowOfflineErrors, openListening } from './tablets.ts'

// No bypassCSP here: the page's own Content-Security-Policy is what this journey checks.

test("a live page that loses its connection sends nothing to a third party: the listening SDK's ping of google.com is refused by the page's CSP", {
  tag: '@shell',
}, async ({ page, context, baseURL, allowConsoleErrors }) => {
  allowOfflineErrors(allowConsoleErrors)
  // The browser says so for each refused ping.
  allowConsoleErrors(/Loading the image 'https:\/\/www\.google\.com\/images\/cleardot\.gif.*Content Security Policy/)
  const own = await createOwnLocation({
    reminderTime: null,
    persons: [{ firstName: 'Gitte', lastName: 'Gram', createdAt: '2024-01-01T09:00:00.000Z' }],
  })
  // The hosts the app itself talks to: its origin, and the backend it is configured with (this
  // machine's loopback in the tests, natively and in the Compose runner).
  const ownHosts = new Set(['127.0.0.1', 'localhost', new URL(baseURL as string).hostname])
  const elsewhere: { url: string; failure: string | null }[] = []
  context.on('request', (request) => {
    if (!ownHosts.has(new URL(request.url()).hostname)) elsewhere.push({ url: request.url(), failure: null })
  })
  context.on('requestfailed', (request) => {
    const seen = elsewhere.find((entry) => entry.url === request.url())
    if (seen) seen.failure = request.failure()?.errorText ?? 'failed'
  })
  await signIn(page, own.email)
  await openListening(page, '/daily')

  // Offline, the full SDK's WebChannel tries again and again, and on each network error it loads
  // https://www.google.com/images/cleardot.gif to tell whether the internet is there (its "network
  // test"; the SDK has no setting for it). That would tell Google the care home's address each time.
  await context.setOffline(true)
  await expect
    .poll(() => elsewhere.length, {
      message: "the SDK's network test was not seen (if it stopped pinging google.com, this check lost its subject)",
      timeout: 20_000,
    })
    .toBeGreaterThan(0)
  await context.setOffline(false)
  await expect(page.getByRole('heading', { level: 2, name: 'Gitte Gram' })).toBeVisible()

  // Every one was refused by the page's CSP (img-src names only the app's own sources) before it left.
  await expect.poll(() => elsewhere.filter((entry) => entry.failure === null).length).toBe(0)
  expect(new Set(elsewhere.map((entry) => new URL(entry.url).hostname))).toEqual(new Set(['www.google.com']))
  expect(elsewhere.map((entry) => entry.failure)).toEqual(elsewhere.map(() => 'csp'))
})
