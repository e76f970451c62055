/// <reference lib="dom" />
import { expect, signIn, test } from './fixtures.ts'
import { addDays, asAdmin, copenhagenDay, createOwnLocation } from './own-location.ts'

const LONG_AGO = '2024-01-01T09:00:00.000Z'

/** The stored documents of a person's diary or registrations, as Firestore holds them. */
const countStored = (path: string) => asAdmin(async (db) => (await db.collection(path).count().get()).data().count)

test('a diary entry dated next year and a registration on a day to come are refused', async ({ page }) => {
  const today = copenhagenDay(new Date())
  const own = await createOwnLocation({ persons: [{ firstName: 'Anna', lastName: 'Andersen', createdAt: LONG_AGO }] })
  const [anna] = own.personIds as [string]
  await signIn(page, own.email)

  await page.goto('/notes')
  const editor = page.getByRole('form', { name: 'Skriv i dagbogen' })
  // With one person at the location, the editor writes for her (no choice of person).
  await expect(editor.getByLabel('Notat')).toBeVisible()
  await expect(editor.getByLabel('Borger')).toHaveCount(0)
  await editor.getByLabel('Dag', { exact: true }).fill(`${Number(today.slice(0, 4)) + 1}${today.slice(4)}`)
  await editor.getByLabel('Notat').fill('Skrevet et år for tidligt')
  await editor.getByRole('button', { name: 'Gem notat' }).click()
  await expect(editor.getByText('Datoen kan ikke ligge efter i dag.')).toBeVisible()
  await expect(page.getByText('Notatet blev gemt')).toHaveCount(0)
  expect(await countStored(`persons/${anna}/notes`)).toBe(0)

  // The person's week offers "Registrer" for today and the days before it, never for a day to come.
  await page.goto(`/person/${anna}/daily?week=${addDays(today, 7)}`)
  await expect(page.getByRole('heading', { name: /^Uge \d+:/ })).toBeVisible()
  await expect(page.getByRole('button', { name: /^Registrer / })).toHaveCount(0)
  await page.goto(`/person/${anna}/daily?week=${today}`)
  await expect(page.getByRole('button', { name: /^Registrer / }).first()).toBeVisible()
  const offered = await page.getByRole('button', { name: /^Registrer / }).count()
  const weekday = (new Date(`${today}T12:00:00Z`).getUTCDay() + 6) % 7
  expect(offered).toBe(weekday + 1)
})

test('a superuser cannot give a person the same answer option twice, and an empty last name saves as Angivet', async ({
  page,
}) => {
  const own = await createOwnLocation({
    role: 'superuser',
    persons: [{ firstName: 'Anna', lastName: 'Andersen', createdAt: LONG_AGO }],
  })
  const [anna] = own.personIds as [string]
  await signIn(page, own.email)

  await page.goto(`/person/${anna}/settings/answers`)
  const add = async (text: string, value: string) => {
    await page.getByLabel('Tekst', { exact: true }).fill(text)
    await page.getByLabel('Værdi', { exact: true }).fill(value)
    await page.getByRole('button', { name: 'Tilføj svarmulighed' }).click()
  }
  await add('Glad', '4')
  await expect(page.getByRole('list', { name: 'Svarmuligheder i rækkefølge' }).getByText('Glad')).toBeVisible()
  await add('glad', '4')
  await expect(page.getByText('Der findes allerede en svarmulighed med samme tekst og værdi')).toBeVisible()
  await expect(page.getByRole('list', { name: 'Svarmuligheder i rækkefølge' }).getByRole('listitem')).toHaveCount(1)
  expect(await countStored(`persons/${anna}/answers`)).toBe(1)

  await page.goto(`/person/${anna}/settings/general`)
  await page.getByLabel('Efternavn').fill('')
  await page.getByRole('button', { name: 'Gem' }).click()
  await expect(page.getByText('Borgeren blev opdateret korrekt')).toBeVisible()
  await page.reload()
  await expect(page.getByLabel('Efternavn')).toHaveValue('Angivet')
  expect(await asAdmin(async (db) => (await db.doc(`persons/${anna}`).get()).get('lastName'))).toBe('Angivet')
})

test('a password of only spaces is refused where it is typed', async ({ page }) => {
  const own = await createOwnLocation({ role: 'superuser', persons: [] })
  await signIn(page, own.email)
  await page.goto('/create/user/general')
  await page.getByLabel('Fornavn').fill('Mette')
  await page.getByLabel('Email').fill(`mette-${Date.now()}@e2e.dk`)
  await page.getByLabel('Adgangskode').fill('      ')
  await page.getByRole('button', { name: 'Opret bruger' }).click()
  await expect(page.getByText('Adgangskoden må ikke kun bestå af mellemrum')).toBeVisible()
  await expect(page.getByText('Brugeren blev tilføjet korrekt')).toHaveCount(0)
})
