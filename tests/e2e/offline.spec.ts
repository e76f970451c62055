/// <reference lib="dom" />
import type { Page, Route } from '@playwright/test'
import { expect, seriousA11yViolations, signIn, test } from './fixtures.ts'
import { copenhagenDay, createOwnLocation, registrationDoc, writeRegistrations } from './own-location.ts'
import { allowOfflineErrors, REGISTRATION_FORM_CODE } from './tablets.ts'

// axe is injected as a script tag, which the app's CSP (script-src 'self') would block.
test.use({ bypassCSP: true })

test('offline, a banner says so in Danish and the page stays; back online the banner goes and the page is live', {
  tag: '@shell',
}, async ({ page, context, allowConsoleErrors }) => {
  allowOfflineErrors(allowConsoleErrors)
  const own = await createOwnLocation({
    reminderTime: null,
    persons: [
      { firstName: 'Gitte', lastName: 'Gram', createdAt: '2024-01-01T09:00:00.000Z' },
      { firstName: 'Hans', lastName: 'Holm', createdAt: '2024-01-01T09:00:00.000Z' },
    ],
  })
  await signIn(page, own.email)
  const banner = page.getByRole('alert').filter({ hasText: /^Ingen forbindelse/ })
  await expect(banner).toHaveCount(0)

  // The wifi drops as the page arrives, before its listening code is fetched: no reload into the
  // browser's offline page, the page and what it read stay.
  await context.setOffline(true)
  await expect(banner).toHaveText(
    'Ingen forbindelse til internettet. Det, du ser, bliver ikke opdateret. Registreringer og notater, du gemmer nu, bliver sendt, når forbindelsen er tilbage. Andet kan ikke gemmes før.',
  )
  await expect(page.getByRole('heading', { level: 1, name: 'Dagsoversigt' })).toBeVisible()
  await expect(page.getByRole('heading', { level: 2, name: 'Gitte Gram' })).toBeVisible()
  expect(await seriousA11yViolations(page)).toEqual([])

  await context.setOffline(false)
  await expect(banner).toHaveCount(0)
  // A colleague's registration (written beside the app) shows by itself: the page listens again.
  await writeRegistrations([
    registrationDoc(own, own.personIds[0] as string, copenhagenDay(new Date()), {
      comment: 'Efter forbindelsen kom igen',
    }),
  ])
  await expect(page.getByText('Efter forbindelsen kom igen')).toBeVisible({ timeout: 5_000 })
})

const NOT_FETCHED =
  'Det her er ikke hentet på denne enhed endnu, og der er ingen forbindelse. Det bliver hentet, når forbindelsen er tilbage.'

/**
 * Signs in to /daily with Gitte Gram on it while the browser's requests for a code file are held; then
 * the tablet goes offline and they fail as offline requests do (before then the code has not arrived).
 */
async function offlineWithoutCode(page: Page, file: RegExp): Promise<void> {
  const held: Route[] = []
  let isOffline = false
  await page.route(file, async (route) => {
    if (isOffline) return route.abort('internetdisconnected')
    held.push(route)
  })
  const own = await createOwnLocation({
    reminderTime: null,
    persons: [{ firstName: 'Gitte', lastName: 'Gram', createdAt: '2024-01-01T09:00:00.000Z' }],
  })
  await signIn(page, own.email)
  await page.goto('/daily')
  await expect(page.getByRole('heading', { level: 2, name: 'Gitte Gram' })).toBeVisible()
  await page.context().setOffline(true)
  isOffline = true
  await Promise.all(held.splice(0).map((route) => route.abort('internetdisconnected')))
}

test.describe('before the app shell keeps the code', () => {
  // The worker that keeps every file of the build is not active yet: the tablet's first seconds.
  test.use({ serviceWorkers: 'block' })

  test('offline before the registration form has arrived, Registrer says so, and the form opens once online', async ({
    page,
    context,
    allowConsoleErrors,
  }) => {
    allowOfflineErrors(allowConsoleErrors)
    await offlineWithoutCode(page, REGISTRATION_FORM_CODE)

    await page.getByRole('button', { name: 'Registrer for Gitte Gram' }).click()
    const dialog = page.getByRole('dialog', { name: 'Registrer svar for Gitte Gram' })
    await expect(dialog.getByRole('status')).toHaveText(NOT_FETCHED)
    // The page stays (no error page, no reload into the browser's offline page).
    await expect(page.getByRole('heading', { level: 1, name: 'Dagsoversigt' })).toBeVisible()
    expect(await seriousA11yViolations(page)).toEqual([])

    // Online again: the form takes the notice's place by itself, and registers.
    await page.unrouteAll()
    await context.setOffline(false)
    await dialog.getByRole('radio', { name: /God dag/ }).check()
    await dialog.getByRole('button', { name: 'Gem' }).click()
    await expect(page.getByText('Registreringen blev gemt')).toBeVisible()
  })

  test('offline before a page’s code has arrived, the page says so, and loads once online', async ({
    page,
    context,
    allowConsoleErrors,
  }) => {
    allowOfflineErrors(allowConsoleErrors)
    await offlineWithoutCode(page, /\/assets\/notes-[\w-]+\.js$/)

    await page.getByRole('navigation', { name: 'Hovedmenu' }).getByRole('link', { name: 'Dagbøger' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Ingen forbindelse' })).toBeVisible()
    await expect(page.getByText(NOT_FETCHED)).toBeVisible()
    await expect(page.getByText('Internal Server Error')).toHaveCount(0)
    expect(await seriousA11yViolations(page)).toEqual([])

    await page.unrouteAll()
    await context.setOffline(false)
    await expect(page.getByRole('heading', { level: 1, name: 'Dagbøger' })).toBeVisible()
    await expect(page).toHaveURL(/\/notes$/)
  })
})
