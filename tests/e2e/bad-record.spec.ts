/// <reference lib="dom" />
import type { Page } from '@playwright/test'
import { expect, seriousA11yViolations, signIn, test } from './fixtures.ts'
import {
  copenhagenDay,
  createOwnLocation,
  noteDoc,
  registrationDoc,
  writeNotes,
  writeRegistrations,
} from './own-location.ts'

// axe is injected as a script tag, which the app's CSP (script-src 'self') would block.
test.use({ bypassCSP: true })

const rows = (page: Page) => page.getByRole('list', { name: 'Borgere' }).getByRole('listitem')
const row = (page: Page, name: string) => rows(page).filter({ has: page.getByRole('heading', { name }) })

test('one registration and one diary entry an older version left behind are left out and reported once; the rest is shown', async ({
  page,
}) => {
  const today = copenhagenDay(new Date())
  const own = await createOwnLocation({
    reminderTime: '00:00',
    persons: [
      { firstName: 'Anna', lastName: 'Andersen', createdAt: '2024-01-01T09:00:00.000Z' },
      { firstName: 'Bo', lastName: 'Berg', createdAt: '2024-01-01T09:00:00.000Z' },
    ],
  })
  const [anna, bo] = own.personIds as [string, string]
  // As an older version, a migration or an import might leave one: no answerId, no entity.
  await writeRegistrations([
    registrationDoc(own, anna, today, { comment: 'Gik en tur' }),
    registrationDoc(own, bo, today, { answerId: undefined, entity: undefined }),
  ])
  await writeNotes([
    noteDoc(own, anna, today, 'Anna spiste godt.'),
    noteDoc(own, bo, today, 'Et gammelt notat', { source: undefined, authorName: undefined }),
  ])
  await signIn(page, own.email)

  await expect(page.getByText('1 registrering kunne ikke vises.')).toBeVisible()
  await expect(page.getByText('Dagsoversigten kunne ikke hentes.')).toHaveCount(0)
  await expect(row(page, 'Anna Andersen').getByText('Gik en tur')).toBeVisible()
  await expect(row(page, 'Bo Berg').getByText('Mangler registrering (påmindelse kl. 00.00)')).toBeVisible()
  expect(await seriousA11yViolations(page)).toEqual([])

  await page.goto('/notes')
  await expect(page.getByText('Anna spiste godt.')).toBeVisible()
  await expect(page.getByText('1 dagbogsnotat kunne ikke vises.')).toBeVisible()
  await expect(page.getByText('Dagbøgerne kunne ikke hentes.')).toHaveCount(0)
  expect(await seriousA11yViolations(page)).toEqual([])

  await page.goto('/statistics')
  await expect(page.getByRole('heading', { name: 'Nøgletal' })).toBeVisible()
  await expect(page.getByText('1 registrering kunne ikke vises.')).toBeVisible()
  await expect(page.getByText('1 dagbogsnotat kunne ikke vises.')).toBeVisible()
})
