/// <reference lib="dom" />
import { ACCOUNTS, expect, signIn, test } from './fixtures.ts'

test('the chosen location is kept across a reload', { tag: '@shell' }, async ({ page }) => {
  await signIn(page, ACCOUNTS.superuser.email)
  const switcher = page.getByRole('combobox', { name: 'Lokation' })
  await expect(switcher.getByRole('option')).toHaveText(['Bostedet Solsikken', 'Egebakken'])
  await expect(switcher).toHaveValue('solsikken')
  await switcher.selectOption({ label: 'Egebakken' })
  await expect(page.getByRole('img', { name: 'Logo for Egebakken' })).toBeVisible()
  expect(await page.evaluate(() => localStorage.getItem('activeLocationId'))).toBe('egebakken')
  await page.reload()
  await expect(page.getByRole('combobox', { name: 'Lokation' })).toHaveValue('egebakken')
})

test('a stored location that is gone falls back to the first one, which is saved', async ({ page }) => {
  await signIn(page, ACCOUNTS.superuser.email)
  await page.evaluate(() => localStorage.setItem('activeLocationId', 'no-longer-here'))
  await page.reload()
  await expect(page.getByRole('combobox', { name: 'Lokation' })).toHaveValue('solsikken')
  expect(await page.evaluate(() => localStorage.getItem('activeLocationId'))).toBe('solsikken')
})

test("a user only sees their own locations: the employee's one needs no switcher", { tag: '@shell' }, async ({
  page,
}) => {
  await signIn(page, ACCOUNTS.employee.email)
  await expect(page.getByRole('combobox', { name: 'Lokation' })).toHaveCount(0)
  await expect(page.getByRole('banner').getByText('Bostedet Solsikken')).toBeVisible()
})

test('the admin sees all three locations', async ({ page }) => {
  await signIn(page, ACCOUNTS.admin.email)
  await expect(page.getByRole('combobox', { name: 'Lokation' }).getByRole('option')).toHaveText([
    'Bostedet Solsikken',
    'Egebakken',
    'Fjordhuset',
  ])
})
