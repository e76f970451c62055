/// <reference lib="dom" />
import { expect, seriousA11yViolations, signIn, test } from './fixtures.ts'
import { copenhagenDay, createOwnLocation, registrationDoc, writeRegistrations } from './own-location.ts'
import { allowOfflineErrors } from './tablets.ts'

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
