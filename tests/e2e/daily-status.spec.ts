/// <reference lib="dom" />
import type { Page } from '@playwright/test'
import { expect, seriousA11yViolations, signIn, test } from './fixtures.ts'
import { addDays, copenhagenDay, createOwnLocation, registrationDoc, writeRegistrations } from './own-location.ts'

// axe is injected as a script tag, which the app's CSP (script-src 'self') would block.
test.use({ bypassCSP: true })

const rows = (page: Page) => page.getByRole('list', { name: 'Borgere' }).getByRole('listitem')
const row = (page: Page, name: string) => rows(page).filter({ has: page.getByRole('heading', { name }) })
const summary = (page: Page) => page.locator('.daily__summary')

test("Dagsoversigt's summary, filter and badges tell the same story: registered, not yet, missing, created later", {
  tag: '@tablet',
}, async ({ page }) => {
  const today = copenhagenDay(new Date())
  const longAgo = '2024-01-01T09:00:00.000Z'
  // The location has no reminder (due by the day's end, so today is before it, whatever the hour);
  // Carl's own reminder is at 00:00 (always past today).
  const own = await createOwnLocation({
    reminderTime: null,
    persons: [
      { firstName: 'Anna', lastName: 'Andersen', createdAt: longAgo },
      { firstName: 'Bo', lastName: 'Berg', createdAt: longAgo },
      { firstName: 'Carl', lastName: 'Clausen', createdAt: longAgo, reminderTime: '00:00' },
      { firstName: 'Dorte', lastName: 'Dam', createdAt: new Date().toISOString() },
    ],
  })
  await writeRegistrations([registrationDoc(own, own.personIds[0] as string, today)])
  await signIn(page, own.email)

  // Today: one registered, one missing (after his reminder), two not yet (before the reminder).
  await expect(summary(page)).toHaveText('1 af 4 registreret · 1 mangler · 2 ikke endnu')
  await expect(row(page, 'Anna Andersen').getByText('Registreret', { exact: true })).toBeVisible()
  await expect(row(page, 'Bo Berg').getByText('Ikke registreret endnu (inden dagens slutning)')).toBeVisible()
  await expect(row(page, 'Carl Clausen').getByText('Mangler registrering (påmindelse kl. 00.00)')).toBeVisible()
  await page.getByRole('radio', { name: 'Mangler' }).click()
  await expect(rows(page)).toHaveCount(1)
  await expect(row(page, 'Carl Clausen')).toHaveCount(1)
  await expect(page.getByText('Alle borgere er registreret denne dag.')).toHaveCount(0)

  // A past day: Dorte did not exist yet, so she is neither missing nor counted.
  const past = addDays(today, -3)
  await page.goto(`/daily?day=${past}`)
  await expect(summary(page)).toHaveText('0 af 3 registreret · 3 mangler · 1 oprettet senere')
  await expect(row(page, 'Dorte Dam')).toHaveCount(0)
  await expect(rows(page)).toHaveCount(3)

  // A day to come: read-only, and no text contradicts another.
  await page.goto(`/daily?day=${addDays(today, 1)}&filter=missing`)
  await expect(summary(page)).toHaveText('0 af 4 registreret · 4 ikke endnu')
  await expect(
    page.getByText('Dagen er ikke begyndt endnu. Der kan ikke registreres på en fremtidig dag.'),
  ).toBeVisible()
  await expect(page.getByText('Ingen mangler registrering endnu. 4 borgere er ikke registreret endnu.')).toBeVisible()
  await expect(page.getByText('Alle borgere er registreret denne dag.')).toHaveCount(0)
  await expect(page.getByText('Ingen registreringer denne dag.')).toHaveCount(0)
  await page.getByRole('radio', { name: 'Alle' }).click()
  await expect(rows(page)).toHaveCount(4)
  await expect(page.getByRole('button', { name: /^Registrer for / })).toHaveCount(0)
  expect(await seriousA11yViolations(page)).toEqual([])
})
