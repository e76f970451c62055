/// <reference lib="dom" />
import { chooseFromUserMenu, expect, seriousA11yViolations, signIn, test } from './fixtures.ts'
import { createColleague, createOwnLocation } from './own-location.ts'
import {
  allowOfflineErrors,
  logEntries,
  openListening,
  registerGoodDay,
  registrationFormLoaded,
  row,
  secondTablet,
  storedDocs as stored,
} from './tablets.ts'

// axe is injected as a script tag, which the app's CSP (script-src 'self') would block.
test.use({ bypassCSP: true })

const WAITING = 'Gemmes, når der er forbindelse'

test('offline, a registration and its correction are kept and shown as waiting; back online each is stored once', {
  // On the tablet and the phone too (axe on the waiting states included).
  tag: '@shell',
}, async ({ page, context, browser, allowConsoleErrors }) => {
  allowOfflineErrors(allowConsoleErrors)
  const own = await createOwnLocation({
    reminderTime: null,
    role: 'superuser',
    persons: [
      { firstName: 'Anna', lastName: 'Andersen', createdAt: '2024-01-01T09:00:00.000Z' },
      { firstName: 'Bo', lastName: 'Berg', createdAt: '2024-01-01T09:00:00.000Z' },
    ],
  })
  const [annaId] = own.personIds as [string]
  const colleague = await createColleague(own, 'Mette')
  await signIn(page, own.email)
  // The wifi drops once the form's code is here (a drop before it is offline.spec.ts's case).
  const formCode = registrationFormLoaded(page)
  await openListening(page, '/daily')
  const tabletB = await secondTablet(browser, colleague.email)
  try {
    await formCode
    await context.setOffline(true)
    const anna = row(page, 'Anna Andersen')

    // The registration: kept on the tablet, on the card at once, said to wait for a connection.
    await registerGoodDay(page, 'Anna Andersen', 'Sov længe')
    await expect(page.getByText('Registreringen gemmes, når der er forbindelse')).toBeVisible()
    await expect(anna.getByText('Sov længe')).toBeVisible()
    await expect(anna.getByText(WAITING)).toBeVisible()
    expect(await seriousA11yViolations(page)).toEqual([])

    // Its correction, offline too: the corrected comment shows, still waiting.
    await anna.getByRole('button', { name: 'Ret: God dag' }).click()
    const correct = page.getByRole('dialog', { name: 'Ret registrering' })
    await correct.getByLabel('Kommentar (valgfri)').fill('Sov længe, spiste godt')
    await correct.getByRole('button', { name: 'Gem' }).click()
    await expect(page.getByText('Rettelsen gemmes, når der er forbindelse')).toBeVisible()
    await expect(anna.getByText('Sov længe, spiste godt')).toBeVisible()
    await expect(anna.getByText(WAITING)).toBeVisible()

    // Nothing of it has reached the backend, and the colleague's tablet has not seen it.
    expect(await stored(annaId, 'registrations')).toEqual([])
    await expect(row(tabletB, 'Anna Andersen').getByText('Sov længe')).toHaveCount(0)

    // Log ud would clear the tablet's copy: it is refused while something waits.
    await chooseFromUserMenu(page, own.staffName, 'Log ud')
    await expect(
      page.getByText(
        'Du er ikke logget ud, for noget af det, du har gemt, er ikke sendt endnu. Log ud, når der er forbindelse igen.',
      ),
    ).toBeVisible()
    await expect(page).toHaveURL(/\/daily$/)

    // Back online: delivered, said as saved, on the colleague's overview, stored once.
    await context.setOffline(false)
    await expect(anna.getByText('Gemt', { exact: true })).toBeVisible({ timeout: 10_000 })
    await expect(anna.getByText(WAITING)).toHaveCount(0)
    await expect(row(tabletB, 'Anna Andersen').getByText('Sov længe, spiste godt')).toBeVisible({ timeout: 5_000 })
    const registrations = await stored(annaId, 'registrations')
    expect(registrations).toHaveLength(1)
    expect(registrations[0]).toMatchObject({ comment: 'Sov længe, spiste godt', createdByName: own.staffName })
    // The correction stays traceable: who made it, and when (on the tablet, before it was sent).
    expect(registrations[0]?.updatedBy).toBe(registrations[0]?.createdBy)
    expect(Date.parse(String(registrations[0]?.updatedAt))).toBeLessThan(Date.now())
  } finally {
    await tabletB.context().close()
  }

  // In Anna's Adgangslog as the writer's, each write once.
  await page.goto(`/person/${annaId}/settings/access-log`)
  const entries = logEntries(page)
  await expect(entries.first()).toBeVisible()
  await expect(entries.filter({ hasText: /^Ida Test \(superbruger\) oprettede 1 registrering · / })).toHaveCount(1)
  await expect(entries.filter({ hasText: /^Ida Test \(superbruger\) ændrede 1 registrering · / })).toHaveCount(1)
})

test('offline, a diary entry joins Dagbøger at once, waiting; back online it is saved and stored once', {
  // On the tablet and the phone too (axe on the waiting states included).
  tag: '@shell',
}, async ({ page, context, allowConsoleErrors }) => {
  allowOfflineErrors(allowConsoleErrors)
  const own = await createOwnLocation({
    role: 'superuser',
    persons: [
      { firstName: 'Carl', lastName: 'Clausen', createdAt: '2024-01-01T09:00:00.000Z' },
      { firstName: 'Dorte', lastName: 'Dam', createdAt: '2024-01-01T09:00:00.000Z' },
    ],
  })
  const [carlId] = own.personIds as [string]
  await signIn(page, own.email)
  await openListening(page, '/notes')
  await context.setOffline(true)

  const text = 'Gik en tur ved stranden, uden forbindelse'
  const editor = page.getByRole('form', { name: 'Skriv i dagbogen' })
  await editor.getByLabel('Borger').selectOption({ label: 'Carl Clausen' })
  await editor.getByLabel('Notat').fill(text)
  await editor.getByRole('button', { name: 'Gem notat' }).click()
  await expect(page.getByText('Notatet gemmes, når der er forbindelse')).toBeVisible()
  // The editor is emptied: the text is kept on the tablet, in the list.
  await expect(editor.getByLabel('Notat')).toHaveValue('')
  const entry = page.getByRole('article').filter({ hasText: text })
  await expect(entry).toBeVisible()
  await expect(entry.getByText(WAITING)).toBeVisible()
  expect(await seriousA11yViolations(page)).toEqual([])
  expect(await stored(carlId, 'notes')).toEqual([])

  await context.setOffline(false)
  await expect(entry.getByText('Gemt', { exact: true })).toBeVisible({ timeout: 10_000 })
  await expect(entry.getByText(WAITING)).toHaveCount(0)
  const notes = await stored(carlId, 'notes')
  expect(notes).toHaveLength(1)
  expect(notes[0]).toMatchObject({ text, authorName: own.staffName, source: 'keyboard' })
  // Once delivered, Log ud goes on, and the tablet's copy goes with it.
  await chooseFromUserMenu(page, own.staffName, 'Log ud')
  await expect(page).toHaveURL(/\/login$/)
  await expect.poll(() => page.evaluate(() => localStorage.getItem('bosted.cacheOwner'))).toBeNull()
})
