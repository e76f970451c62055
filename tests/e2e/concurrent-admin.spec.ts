import type { Page } from '@playwright/test'
import { ACCOUNTS, expect, signIn, test } from './fixtures.ts'

const unique = (label: string) =>
  `${label} ${Date.now().toString(36).slice(-5)}${Math.random().toString(36).slice(2, 5)}`

/** A Copenhagen day `days` from today, as 'YYYY-MM-DD' and as the admin pages write it ('DD.MM.YYYY'). */
function dayFromToday(days: number): { iso: string; danish: string } {
  const iso = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Copenhagen' }).format(Date.now() + days * 86_400_000)
  return { iso, danish: `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}` }
}

async function openSubscription(page: Page, name: string): Promise<void> {
  await page.goto('/admin')
  await page.getByRole('table').getByRole('link', { name }).click()
  await page.getByRole('link', { name: 'Abonnement' }).click()
  await expect(page.getByRole('heading', { level: 2, name: 'Abonnement' })).toBeVisible()
}

async function fillSubscription(page: Page, amount: string, validUntil: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Abonnement' })
  await form.getByLabel('Beløb (kr.)').fill(amount)
  await form.getByLabel('Gyldig til').fill(validUntil)
}

test('two admins change one subscription at once: the second is told in Danish, sees the stored one, and the history chains', async ({
  page,
  browser,
}) => {
  // Admin A in the test's page; admin B in a browser of its own (own cookies, own Firebase session).
  const other = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    locale: 'da-DK',
    timezoneId: 'Europe/Copenhagen',
  })
  const pageB = await other.newPage()
  try {
    await signIn(page, ACCOUNTS.admin.email)
    await signIn(pageB, ACCOUNTS.admin.email)
    const name = unique('Bostedet Samtidig')
    await page.goto('/admin')
    await page.getByLabel('Navn på den nye lokation').fill(name)
    await page.getByRole('button', { name: 'Opret lokation' }).click()
    await expect(page.getByText('Lokationen blev oprettet')).toBeVisible()

    // Both open the page while there is no subscription yet.
    await openSubscription(page, name)
    await openSubscription(pageB, name)
    await expect(pageB.getByText('Intet abonnement')).toBeVisible()
    const first = dayFromToday(100)
    const second = dayFromToday(200)
    await fillSubscription(page, '1000', first.iso)
    await fillSubscription(pageB, '2000', second.iso)

    await page.getByRole('form', { name: 'Abonnement' }).getByRole('button', { name: 'Gem' }).click()
    await expect(page.getByText('Lokationen blev opdateret')).toBeVisible()

    // B saves from the page as it was before A's save: refused, told so, shown what is stored.
    await pageB.getByRole('form', { name: 'Abonnement' }).getByRole('button', { name: 'Gem' }).click()
    await expect(
      pageB.getByText('En anden har gemt abonnementet først. Dit er ikke gemt – du ser nu det gemte abonnement.'),
    ).toBeVisible()
    const formB = pageB.getByRole('form', { name: 'Abonnement' })
    await expect(formB.getByLabel('Beløb (kr.)')).toHaveValue('1.000')
    await expect(pageB.getByText(`Aktiv til ${first.danish}`)).toBeVisible()
    const historyB = pageB.getByRole('region', { name: 'Historik' })
    await expect(historyB.getByRole('listitem')).toHaveCount(1)

    // Now B saves its change over the current value: the second line starts where the first ended.
    await fillSubscription(pageB, '2000', second.iso)
    await formB.getByRole('button', { name: 'Gem' }).click()
    await expect(pageB.getByText('Lokationen blev opdateret')).toBeVisible()
    await expect(historyB.getByRole('listitem')).toHaveCount(2)
    await expect(historyB.getByRole('listitem').first()).toContainText(
      `1.000 kr. til ${first.danish} → 2.000 kr. til ${second.danish}`,
    )
    await expect(historyB.getByRole('listitem').last()).toContainText(
      `Intet abonnement → 1.000 kr. til ${first.danish}`,
    )
  } finally {
    await other.close()
  }
})
