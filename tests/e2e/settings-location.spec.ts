/// <reference lib="dom" />
import type { Page } from '@playwright/test'
import { ACCOUNTS, expect, seriousA11yViolations, signIn, test } from './fixtures.ts'

// axe is injected as a script tag, which the app's CSP (script-src 'self') would block.
test.use({ bypassCSP: true })

// Egebakken: a location no other journey counts.

async function expectAxeClean(page: Page): Promise<void> {
  expect(await seriousA11yViolations(page)).toEqual([])
}

test("a superuser adds, hides and reorders the location's answer options; the register dialog follows", async ({
  page,
}) => {
  await signIn(page, ACCOUNTS.superuser.email)
  await page.getByRole('combobox', { name: 'Lokation' }).selectOption({ label: 'Egebakken' })
  await page.goto('/settings/answers')
  const list = page.getByRole('list', { name: 'Svarmuligheder i rækkefølge' })
  await expect(list.getByRole('listitem')).toHaveCount(4)

  await expectAxeClean(page)
  const form = page.getByRole('group', { name: 'Ny svarmulighed' })
  await form.getByRole('button', { name: 'Tilføj svarmulighed' }).click()
  await expect(form.getByText('Tekst er påkrævet')).toBeVisible()
  await expect(form.getByText('Værdien skal være et tal')).toBeVisible()
  await form.getByLabel('Tekst').fill('Træt')
  await form.getByLabel('Værdi').fill('2')
  await form.getByRole('button', { name: 'Tilføj svarmulighed' }).click()
  await expect(page.getByText('Svarmuligheden blev gemt')).toBeVisible()
  await expect(list.getByRole('listitem')).toHaveCount(5)
  await expect(list.getByRole('listitem').last()).toContainText('Træt')

  // The keyboard alternative to dragging.
  await page.getByRole('button', { name: 'Flyt Træt op' }).click()
  await expect(page.getByText('Rækkefølgen blev gemt')).toBeVisible()
  // Dragging does the same: the last option onto the first place, and back again.
  const items = list.getByRole('listitem')
  await items.filter({ hasText: 'Ked af det' }).dragTo(items.first())
  await expect(items.first()).toContainText('Ked af det')
  await items.first().dragTo(items.last())
  await expect(items.last()).toContainText('Ked af det')
  await expect(items.first()).toContainText('Glad')
  await page.getByRole('button', { name: 'Skjul Urolig' }).click()
  await expect(list.getByRole('listitem').filter({ hasText: 'Urolig' })).toContainText('Skjult')
  await page.getByRole('button', { name: 'Rediger Glad' }).click()
  const edit = page.getByRole('dialog', { name: 'Rediger svarmulighed' })
  await edit.getByLabel('Tekst').fill('Glad og tilfreds')
  await expectAxeClean(page)
  await edit.getByRole('button', { name: 'Gem' }).click()
  await expect(list.getByRole('listitem').first()).toContainText('Glad og tilfreds')
  await page.reload()
  await expect(list.getByRole('listitem')).toContainText(['Glad og tilfreds', 'Rolig', 'Urolig', 'Træt', 'Ked af det'])

  await page.goto('/daily?day=2025-05-05')
  const row = page.getByRole('list', { name: 'Borgere' }).getByRole('article').first()
  await row.getByRole('button', { name: /^Registrer for/ }).click()
  // allTextContents does not wait: the options must be there first (they load with the dialog).
  await expect(page.getByRole('dialog').getByRole('radio', { name: /^Ked af det/ })).toBeVisible()
  const labels = await page.getByRole('dialog').locator('label.choice').allTextContents()
  const place = labels.filter((label) => /^(Glad og tilfreds|Rolig|Urolig|Træt|Ked af det)/.test(label))
  expect(place.map((label) => label.replace(/-?\d+$/, ''))).toEqual(['Glad og tilfreds', 'Rolig', 'Træt', 'Ked af det'])
})

test("a superuser sets the location's daily reminder time", async ({ page }) => {
  await signIn(page, ACCOUNTS.superuser.email)
  await page.getByRole('combobox', { name: 'Lokation' }).selectOption({ label: 'Egebakken' })
  await page.goto('/settings/notifications')
  const time = page.getByLabel('Daglig påmindelse for lokationen (tom = ingen)')
  await expect(time).toHaveValue('21:00')
  await time.fill('21:30')
  await expectAxeClean(page)
  await page.getByRole('button', { name: 'Gem' }).click()
  await expect(page.getByText('Lokationen blev opdateret')).toBeVisible()
  await page.reload()
  await expect(time).toHaveValue('21:30')
})
