/// <reference lib="dom" />
import { readFile } from 'node:fs/promises'
import { inflateRawSync } from 'node:zlib'
import type { Page } from '@playwright/test'
import { type App, deleteApp, initializeApp } from 'firebase-admin/app'
import { initializeFirestore } from 'firebase-admin/firestore'
import { ACCOUNTS, downloadCsvLines, expect, failedRequest, seriousA11yViolations, signIn, test } from './fixtures.ts'
import { logEntries } from './tablets.ts'

// axe is injected as a script tag, which the app's CSP (script-src 'self') would block.
test.use({ bypassCSP: true })

// Every journey here runs on the desktop, the tablet and the phone.
const ALL_SCREENS = { tag: '@shell' }

/** A text no other run of a journey wrote: the projects share one stack. */
const unique = (label: string) => `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`

const copenhagenDay = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Copenhagen' }).format(ms)

/** The person's picture in the page header, shown from an object URL (downloaded as the signed-in user). */
const personPicture = (page: Page) => page.locator('.avatar--large img[src^="blob:"]').first()

/** Signs the page's browser out of one account and into another (as a shared device would). */
async function switchTo(page: Page, email: string): Promise<void> {
  await page.context().clearCookies()
  await signIn(page, email)
}

/** The files of a zip (stored or deflated, as the api's archiver writes them), by name. */
function unzip(zip: Buffer): Map<string, Buffer> {
  let end = zip.length - 22
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--
  if (end < 0) throw new Error('not a zip file')
  const files = new Map<string, Buffer>()
  let at = zip.readUInt32LE(end + 16)
  for (let index = zip.readUInt16LE(end + 10); index > 0; index--) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('a broken central directory')
    const method = zip.readUInt16LE(at + 10)
    const size = zip.readUInt32LE(at + 20)
    const nameLength = zip.readUInt16LE(at + 28)
    const local = zip.readUInt32LE(at + 42)
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength)
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28)
    const data = zip.subarray(start, start + size)
    files.set(name, method === 0 ? data : inflateRawSync(data))
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32)
  }
  return files
}

/** Writes a diary entry that was corrected once, beside the app (firebase-admin); returns its id and texts. */
async function correctedNote(personId: string, locationId: string) {
  let app: App | undefined
  try {
    app = initializeApp({ projectId: process.env.FIREBASE_PROJECT_ID ?? 'demo-bosted' }, `access-log-${Date.now()}`)
    const db = initializeFirestore(app, { preferRest: true })
    // The emulator needs no Google credentials: the client sends its owner token, nothing is looked up.
    db.settings({
      auth: { getRequestHeaders: async () => ({}), fetch: (url: string, init: RequestInit) => fetch(url, init) },
    } as never)
    const first = unique('Urolig ved aftensmaden.')
    const second = unique('Rolig ved aftensmaden efter en snak.')
    const now = new Date()
    const reference = await db.collection(`persons/${personId}/notes`).add({
      personId,
      locationId,
      day: copenhagenDay(now.getTime()),
      createdAt: new Date(now.getTime() - 60_000).toISOString(),
      createdBy: 'demo-medarbejder',
      authorName: 'Signe Dahl',
      source: 'keyboard',
      text: second,
      revisions: [{ text: first, at: now.toISOString(), by: 'demo-medarbejder', byName: 'Signe Dahl' }],
    })
    return { id: reference.id, first, second }
  } finally {
    if (app !== undefined) await deleteApp(app)
  }
}

test(
  "an employee's reading shows in the admin's Adgangslog in Danish; filtered by her, the CSV holds the same entries",
  ALL_SCREENS,
  async ({ page }) => {
    await signIn(page, ACCOUNTS.employee.email)
    await page.goto('/person/demo-borger02/notes')
    await expect(page.getByRole('heading', { level: 2, name: 'Dagbøger for borger' })).toBeVisible()
    await expect(page.getByRole('article').first()).toBeVisible()
    // The person's picture is read as her (an object URL), never by its download URL alone.
    await expect(personPicture(page)).toBeVisible()

    await switchTo(page, ACCOUNTS.admin.email)
    await page.goto('/admin/person/demo-borger02/settings')
    await expect(page.getByRole('heading', { level: 1, name: 'Borgerindstillinger' })).toBeVisible()
    // The Indstillinger tab's own reads (the picture too) are done before the log is opened.
    await expect(page.getByLabel('Flyt til lokation')).toBeVisible()
    await expect(personPicture(page)).toBeVisible()
    await page.getByRole('navigation', { name: 'Faner' }).getByRole('link', { name: 'Adgangslog' }).click()
    await expect(page).toHaveURL(/\/admin\/person\/demo-borger02\/settings\/access-log$/)
    await expect(page.getByRole('heading', { level: 2, name: 'Adgangslog' })).toBeVisible()
    // Newest first: this very opening of the log, then the employee's reading of the diary.
    await expect(logEntries(page).first()).toContainText('Birgitte Holm (administrator) åbnede adgangsloggen · ')
    const reading = logEntries(page).filter({ hasText: 'Signe Dahl (medarbejder) læste' }).filter({
      hasText: 'dagbogsnotat',
    })
    await expect(reading.first()).toBeVisible()
    await expect(reading.first()).toHaveText(
      /^Signe Dahl \(medarbejder\) læste \d+ dagbogsnotat(er)? · \d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/,
    )
    await expect(page.getByRole('status').filter({ hasText: /^Loggen er ubrudt/ })).toBeVisible()
    // Every reading of the picture names its reader: hers and the admin's, no unknown one.
    await expect(
      logEntries(page)
        .filter({ hasText: /^Signe Dahl \(medarbejder\) læste borgerens billede · / })
        .first(),
    ).toBeVisible()
    await expect(
      logEntries(page)
        .filter({ hasText: /^Birgitte Holm \(administrator\) læste borgerens billede · / })
        .first(),
    ).toBeVisible()
    await expect(logEntries(page).filter({ hasText: /^Ukendt bruger/ })).toHaveCount(0)

    const filters = page.getByRole('form', { name: 'Afgrænsning af adgangsloggen' })
    await filters.getByLabel('Medarbejder').selectOption({ label: 'Signe Dahl (medarbejder)' })
    await filters.getByRole('button', { name: 'Vis' }).click()
    await expect(page).toHaveURL(/actor=demo-medarbejder/)
    await expect(logEntries(page).first()).toContainText('Signe Dahl (medarbejder)')
    const more = page.getByRole('button', { name: 'Vis flere' })
    while (await more.isVisible()) {
      const shown = await logEntries(page).count()
      await more.click()
      await expect.poll(() => logEntries(page).count()).toBeGreaterThan(shown)
    }
    const texts = await logEntries(page).allTextContents()
    expect(texts.every((text) => text.startsWith('Signe Dahl (medarbejder) '))).toBe(true)

    const today = copenhagenDay(Date.now())
    const from = copenhagenDay(Date.now() - 29 * 86_400_000)
    const { name, lines } = await downloadCsvLines(page, 'Hent som CSV')
    expect(name).toMatch(new RegExp(`^adgangslog-[a-zæøå0-9-]+-${from}-${today}\\.csv$`))
    expect(lines[0]).toBe('"Tidspunkt";"Navn";"Email";"Rolle";"Handling";"Data";"Antal";"Sti";"IP-adresse"')
    expect(lines.length - 1).toBe(texts.length)
    expect(lines.slice(1).every((line) => line.includes(';"Signe Dahl";"medarbejder@demo.dk";"medarbejder";'))).toBe(
      true,
    )
    expect(lines.some((line) => /;"\d+ dagbogsnotat(er)?";/.test(line))).toBe(true)
  },
)

test(
  "an admin exports a person's data: one zip whose data.json holds the notes with their corrections",
  ALL_SCREENS,
  async ({ page }) => {
    const note = await correctedNote('demo-borger03', 'solsikken')
    await signIn(page, ACCOUNTS.admin.email)
    await page.goto('/admin/person/demo-borger03/settings')
    await expect(page.getByRole('heading', { level: 2, name: 'Indstillinger' })).toBeVisible()
    const exportLink = page.getByRole('link', { name: 'Eksportér borgerens data' })
    await expect(exportLink).toHaveAccessibleDescription(/^Én fil \(zip\) med alt/)

    const download = page.waitForEvent('download')
    await exportLink.click()
    const file = await download
    expect(file.suggestedFilename()).toMatch(/^borger-[a-zæøå0-9-]+-\d{4}-\d{2}-\d{2}\.zip$/)
    const files = unzip(await readFile((await file.path()) as string))
    for (const name of ['data.json', 'resume.html', 'adgangslog.json', 'adgangslog.csv'])
      expect([...files.keys()]).toContain(name)
    const data = JSON.parse(files.get('data.json')?.toString('utf8') ?? 'null') as {
      person: { id: string }
      exportedBy: { uid: string }
      notes: { id: string; text: string; revisions?: { text: string; byName: string }[] }[]
    }
    expect(data.person.id).toBe('demo-borger03')
    expect(data.exportedBy.uid).toBe('demo-admin')
    expect(data.notes.length).toBeGreaterThan(1)
    const corrected = data.notes.find((candidate) => candidate.id === note.id)
    expect(corrected?.text).toBe(note.second)
    expect(corrected?.revisions).toEqual([expect.objectContaining({ text: note.first, byName: 'Signe Dahl' })])

    // The export is itself in the person's log.
    await page.getByRole('navigation', { name: 'Faner' }).getByRole('link', { name: 'Adgangslog' }).click()
    await expect(
      logEntries(page).filter({ hasText: 'Birgitte Holm (administrator) eksporterede borgerens data' }).first(),
    ).toBeVisible()
  },
)

test(
  "a superuser sees the log of his own location's persons, not of another location's; an employee is refused",
  ALL_SCREENS,
  async ({ page, allowConsoleErrors }) => {
    // The browser's own lines for the refused reads: Fjordhuset's person (rules) and the employee's log (api).
    allowConsoleErrors(/status of 403 .*documents/)
    allowConsoleErrors(failedRequest(403, '/api/person/demo-borger01/access-log'))
    await signIn(page, ACCOUNTS.superuser.email)
    // Egebakken is his.
    await page.goto('/person/demo-borger13/settings')
    await page
      .getByRole('navigation', { name: 'Indstillinger for borger' })
      .getByRole('link', { name: 'Adgangslog' })
      .click()
    await expect(page).toHaveURL(/\/person\/demo-borger13\/settings\/access-log$/)
    await expect(
      logEntries(page).filter({ hasText: 'Jesper Kjær (superbruger) åbnede adgangsloggen' }).first(),
    ).toBeVisible()

    // Fjordhuset is not: the person cannot be read (404 page), and the api refuses the log.
    await page.goto('/person/demo-borger22/settings/access-log')
    await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible()
    const refused = await page.request.get('/api/person/demo-borger22/access-log')
    expect(refused.status()).toBe(403)
    expect(await refused.json()).toMatchObject({ error: { code: 'forbidden' } })
    await page.goto('/admin/person/demo-borger22/settings/access-log')
    await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible()

    // An employee is not offered the tab; at its address the api's refusal is shown.
    await switchTo(page, ACCOUNTS.employee.email)
    await page.goto('/person/demo-borger01/settings')
    await expect(page.getByRole('heading', { level: 2, name: 'Indstillinger for borger' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Adgangslog' })).toHaveCount(0)
    const answer = page.waitForResponse((response) => response.url().includes('/api/person/demo-borger01/access-log'))
    await page.goto('/person/demo-borger01/settings/access-log')
    expect((await answer).status()).toBe(403)
    await expect(page.getByRole('alert').filter({ hasText: 'Du har ikke adgang til dette.' })).toBeVisible()
    await expect(logEntries(page)).toHaveCount(0)
  },
)

test('the Adgangslog tab has no serious accessibility problems and fits the screen', ALL_SCREENS, async ({ page }) => {
  await signIn(page, ACCOUNTS.admin.email)
  await page.goto('/admin/person/demo-borger05/settings/access-log')
  await expect(logEntries(page).first()).toBeVisible()
  await expect(page.getByRole('status').filter({ hasText: /^Loggen er/ })).toBeVisible()
  expect(await seriousA11yViolations(page)).toEqual([])
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  )
  expect(overflow).toBeLessThanOrEqual(0)
  // Keyboard: from the last filter, Tab reaches "Vis", and Enter applies the filter.
  await page.getByLabel('Handling').selectOption({ label: 'Åbnet adgangslog' })
  await page.getByLabel('Handling').focus()
  await page.keyboard.press('Tab')
  await expect(page.getByRole('button', { name: 'Vis', exact: true })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/operation=viewLog/)
  await expect(logEntries(page).first()).toContainText('Birgitte Holm (administrator) åbnede adgangsloggen')
})
