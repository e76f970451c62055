/// <reference lib="dom" />
import type { Page } from '@playwright/test'
import { ACCOUNTS, chooseFromUserMenu, DEMO_PASSWORD, expect, seriousA11yViolations, signIn, test } from './fixtures.ts'
import {
  addDays,
  copenhagenDay,
  createColleague,
  createOwnLocation,
  registrationDoc,
  writeRegistrations,
} from './own-location.ts'
import { registerGoodDay, row, secondTablet } from './tablets.ts'

// axe is injected as a script tag, which the app's CSP (script-src 'self') would block.
test.use({ bypassCSP: true })

/** How soon a colleague's write must show on the other tablet (issue 36). */
const LIVE_MS = 2_000

const unique = (label: string) =>
  `${label} ${Date.now().toString(36).slice(-5)}${Math.random().toString(36).slice(2, 5)}`

/** Writes a diary entry for `person` on Dagbøger's editor and waits until it is saved. */
async function writeDiaryEntry(page: Page, person: string, text: string): Promise<void> {
  await page.goto('/notes')
  const editor = page.getByRole('form', { name: 'Skriv i dagbogen' })
  await editor.getByLabel('Borger').selectOption({ label: person })
  await editor.getByLabel('Notat').fill(text)
  await editor.getByRole('button', { name: 'Gem notat' }).click()
  await expect(page.getByText('Notatet blev gemt')).toBeVisible()
}

test("a colleague's registration, correction and diary entry appear on the other tablet's Dagsoversigt by themselves", {
  tag: '@tablet',
}, async ({ page, browser }) => {
  const own = await createOwnLocation({
    reminderTime: null,
    persons: [
      { firstName: 'Anna', lastName: 'Andersen', createdAt: '2024-01-01T09:00:00.000Z' },
      { firstName: 'Bo', lastName: 'Berg', createdAt: '2024-01-01T09:00:00.000Z' },
    ],
  })
  const colleague = await createColleague(own, 'Mette')
  await signIn(page, own.email)
  const tabletB = await secondTablet(browser, colleague.email)
  try {
    const anna = row(page, 'Anna Andersen')
    await expect(anna.getByText('Ikke registreret endnu (inden dagens slutning)')).toBeVisible()
    await expect(page.getByRole('status').filter({ hasText: / af 2 registreret/ })).toHaveText(
      '0 af 2 registreret · 2 ikke endnu',
    )

    // B registers Anna: A's overview shows it without a reload, the row marked for a moment.
    const annaB = row(tabletB, 'Anna Andersen')
    await registerGoodDay(tabletB, 'Anna Andersen', 'Spiste morgenmad')
    await expect(tabletB.getByText('Registreringen blev gemt')).toBeVisible()
    await expect(anna.getByText('Spiste morgenmad')).toBeVisible({ timeout: LIVE_MS })
    // Checked at once: the cue lasts 3 s.
    const card = anna.getByRole('article')
    await expect(card).toHaveClass(/is-changed/)
    expect(await seriousA11yViolations(page)).toEqual([])
    await expect(anna.getByText('Registreret', { exact: true })).toBeVisible()
    await expect(page.getByRole('status').filter({ hasText: / af 2 registreret/ })).toHaveText(
      '1 af 2 registreret · 1 ikke endnu',
    )
    // The cue is quiet: it goes again by itself.
    await expect(card).not.toHaveClass(/is-changed/, { timeout: 5_000 })

    // B corrects it: A sees the corrected comment, not the first.
    await annaB.getByRole('button', { name: 'Ret: God dag' }).click()
    const correct = tabletB.getByRole('dialog', { name: 'Ret registrering' })
    await correct.getByLabel('Kommentar (valgfri)').fill('Spiste ingen morgenmad')
    await correct.getByRole('button', { name: 'Gem' }).click()
    await expect(tabletB.getByText('Registreringen blev rettet')).toBeVisible()
    await expect(anna.getByText('Spiste ingen morgenmad')).toBeVisible({ timeout: LIVE_MS })
    await expect(anna.getByText('Spiste morgenmad', { exact: true })).toHaveCount(0)

    // B writes in Anna's diary: A's overview counts it.
    await writeDiaryEntry(tabletB, 'Anna Andersen', unique('Gik en tur i haven.'))
    await expect(anna.getByRole('link', { name: '1 dagbogsnotat' })).toBeVisible({ timeout: LIVE_MS })
  } finally {
    await tabletB.context().close()
  }
})

test("a colleague's diary entry appears in Dagbøger by itself, marked as new", { tag: '@tablet' }, async ({
  page,
  browser,
}) => {
  const own = await createOwnLocation({
    persons: [
      { firstName: 'Carl', lastName: 'Clausen', createdAt: '2024-01-01T09:00:00.000Z' },
      { firstName: 'Dorte', lastName: 'Dam', createdAt: '2024-01-01T09:00:00.000Z' },
    ],
  })
  const colleague = await createColleague(own, 'Lone')
  await signIn(page, own.email)
  await page.goto('/notes')
  await expect(page.getByText('Ingen notater i perioden.')).toBeVisible()
  const tabletB = await secondTablet(browser, colleague.email)
  try {
    const text = unique('Carl fik besøg af sin søster.')
    await writeDiaryEntry(tabletB, 'Carl Clausen', text)

    const entry = page.getByRole('listitem').filter({ hasText: text })
    await expect(entry).toBeVisible({ timeout: LIVE_MS })
    // Checked at once: the cue lasts 3 s.
    await expect(entry).toHaveClass(/is-changed/)
    expect(await seriousA11yViolations(page)).toEqual([])
    await expect(entry.getByText('af Lone Kollega')).toBeVisible()
  } finally {
    await tabletB.context().close()
  }
})

test("a person's Min dag shows what staff write for them, without a reload", { tag: '@tablet' }, async ({
  page,
  browser,
}) => {
  // From the seed: borger10 lives at Solsikken, where medarbejder works, and has every feature.
  await page.goto('/login')
  await page.getByLabel('Email').fill('borger10@demo.dk')
  await page.getByLabel('Adgangskode').fill(DEMO_PASSWORD)
  await page.getByRole('button', { name: 'Log ind' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Min dag' })).toBeVisible()
  const lastDays = page.getByRole('region', { name: 'Mine sidste dage' })
  const name = (await page.locator('.person-header__name').textContent()) ?? ''

  const staff = await secondTablet(browser, ACCOUNTS.employee.email)
  try {
    const text = unique('Vi har været i svømmehallen.')
    await writeDiaryEntry(staff, name, text)
    await expect(lastDays.getByText(text)).toBeVisible({ timeout: LIVE_MS })
  } finally {
    await staff.context().close()
  }
})

test('after Log ud and another sign-in on the same tablet, the Dagsoversigt is live again for the new user', async ({
  page,
  browser,
}) => {
  const own = await createOwnLocation({
    reminderTime: null,
    persons: [
      { firstName: 'Erik', lastName: 'Eriksen', createdAt: '2024-01-01T09:00:00.000Z' },
      { firstName: 'Fie', lastName: 'Frost', createdAt: '2024-01-01T09:00:00.000Z' },
    ],
  })
  const first = await createColleague(own, 'Karen')
  const second = await createColleague(own, 'Jonas')
  // The first user's page listens, then signs out: the listeners and the SDK's instance end with it.
  const listening = page.waitForRequest((request) => request.url().includes('/google.firestore.v1.Firestore/Listen/'))
  await signIn(page, first.email)
  await expect(row(page, 'Erik Eriksen')).toBeVisible()
  await listening
  await chooseFromUserMenu(page, first.name, 'Log ud')
  await expect(page).toHaveURL(/\/login$/)
  await signIn(page, second.email)
  const erik = row(page, 'Erik Eriksen')
  await expect(erik.getByText('Ikke registreret endnu (inden dagens slutning)')).toBeVisible()

  const tabletB = await secondTablet(browser, own.email)
  try {
    await row(tabletB, 'Erik Eriksen').getByRole('button', { name: 'Registrer for Erik Eriksen' }).click()
    const dialog = tabletB.getByRole('dialog', { name: 'Registrer svar for Erik Eriksen' })
    await dialog.getByRole('radio', { name: /God dag/ }).check()
    await dialog.getByLabel('Kommentar (valgfri)').fill('Efter vagtskiftet')
    await dialog.getByRole('button', { name: 'Gem' }).click()
    await expect(tabletB.getByText('Registreringen blev gemt')).toBeVisible()
    await expect(erik.getByText('Efter vagtskiftet')).toBeVisible({ timeout: LIVE_MS })
  } finally {
    await tabletB.context().close()
  }
})

test("a person's Dagsoversigt shows a colleague's registrations in its week and its chart (two listeners on the same registrations)", async ({
  page,
}) => {
  const own = await createOwnLocation({
    reminderTime: null,
    persons: [{ firstName: 'Ib', lastName: 'Iversen', createdAt: '2024-01-01T09:00:00.000Z' }],
  })
  const [person] = own.personIds as [string]
  const today = copenhagenDay(new Date())
  await signIn(page, own.email)
  const listening = page.waitForRequest((request) => request.url().includes('/google.firestore.v1.Firestore/Listen/'))
  await page.goto(`/person/${person}/daily`)
  const chart = (days: string) => page.getByRole('img', { name: `Værdier de sidste 30 dage. ${days}` })
  await expect(chart('Ingen registreringer de sidste 30 dage.')).toBeVisible()
  await listening
  // Two listeners match each write: the week's and the chart's. The chart once stayed stale, when
  // emulator-lite raised a snapshot between them and the web took no metadata changes (ADR 0029, 0032).
  await writeRegistrations([registrationDoc(own, person, today, { comment: 'Kollegaens registrering' })])
  await expect(page.getByText('Kollegaens registrering')).toBeVisible({ timeout: LIVE_MS })
  await expect(chart('1 dage med registreringer de sidste 30 dage.')).toBeVisible({ timeout: LIVE_MS })
  await writeRegistrations([registrationDoc(own, person, addDays(today, -1))])
  await expect(chart('2 dage med registreringer de sidste 30 dage.')).toBeVisible({ timeout: LIVE_MS })
})
