/// <reference lib="dom" />
import type { Page } from '@playwright/test'
import { expect, signIn, test } from './fixtures.ts'
import { addDays, copenhagenDay, createOwnLocation, registrationDoc, writeRegistrations } from './own-location.ts'

const figure = (page: Page, label: string) =>
  page
    .locator('.figures__item')
    .filter({ has: page.getByRole('term').filter({ hasText: label }) })
    .locator('.figures__value')

test('Statistik adds up: the total and "Oftest svaret … (x af y)" count the same registrations; today is not the worst day', async ({
  page,
}) => {
  const today = copenhagenDay(new Date())
  const threeDaysAgo = addDays(today, -3)
  // Both persons came three days ago (10:00 Copenhagen time); Bo has since moved out (disabled).
  const createdAt = `${threeDaysAgo}T09:00:00.000Z`
  const own = await createOwnLocation({
    persons: [
      { firstName: 'Anna', lastName: 'Andersen', createdAt },
      { firstName: 'Bo', lastName: 'Berg', createdAt, disabled: true },
    ],
  })
  const [anna, bo] = own.personIds as [string, string]
  // Anna every day that is over, not yet today; Bo once before he moved out.
  await writeRegistrations([
    registrationDoc(own, anna, threeDaysAgo),
    registrationDoc(own, anna, addDays(today, -2)),
    registrationDoc(own, anna, addDays(today, -1)),
    registrationDoc(own, bo, addDays(today, -2)),
  ])
  await signIn(page, own.email)
  await page.goto('/statistics')
  await expect(figure(page, 'Registreringer')).toHaveText('3')
  await expect(page.getByText('Oftest svaret: God dag (lokationens) (3 af 3).')).toBeVisible()
  // Every day that is over was fully registered; today (0 % so far) is neither the lowest nor in the average.
  const coverage = page.getByText(/^I gennemsnit var /)
  await expect(coverage).toHaveText(
    /^I gennemsnit var 100 % af borgerne registreret pr\. dag\. Lavest 100 % \S+\. \d+\. \S+\.$/,
  )
  await expect(coverage).not.toHaveText(/\.\.$/)
})
