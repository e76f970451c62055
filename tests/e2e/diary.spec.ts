/// <reference lib="dom" />
import type { Page } from '@playwright/test'
import { installFakeSpeech } from './fake-speech.ts'
import { ACCOUNTS, expect, isNarrow, menuButton, seriousA11yViolations, signIn, test } from './fixtures.ts'

// axe is injected as a script tag, which the app's CSP (script-src 'self') would block.
test.use({ bypassCSP: true })

/** A text no other run of a journey wrote: the desktop and tablet projects share one stack. */
const unique = (label: string) => `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`

const entry = (page: Page, text: string) => page.getByRole('article').filter({ hasText: text })

/** Writes an entry on the page's editor for the first person (or the fixed one); returns the person's name. */
async function write(page: Page, text: string, day?: string): Promise<string> {
  const editor = page.getByRole('form', { name: 'Skriv i dagbogen' })
  const person = editor.getByLabel('Borger')
  await expect(editor.getByLabel('Notat')).toBeVisible()
  let name = ''
  if ((await person.count()) > 0) {
    await person.selectOption({ index: 1 })
    name = (await person.locator('option:checked').textContent()) ?? ''
  }
  if (day !== undefined) await editor.getByLabel('Dag', { exact: true }).fill(day)
  await editor.getByLabel('Notat').fill(text)
  await editor.getByRole('button', { name: 'Gem notat' }).click()
  await expect(page.getByText('Notatet blev gemt')).toBeVisible()
  await expect(editor.getByLabel('Notat')).toHaveValue('')
  return name
}

test("an employee writes a diary entry; it is in Dagbøger and the person's diary, with its line breaks, after a reload", {
  tag: '@tablet',
}, async ({ page }) => {
  await signIn(page, ACCOUNTS.employee.email)
  await page.goto('/notes')
  await expect(page.getByRole('heading', { level: 1, name: 'Dagbøger' })).toBeVisible()
  const first = unique('Gik en tur ved fjorden.')
  const text = `${first}\nSov godt bagefter.`
  const name = await write(page, text)

  const written = entry(page, first)
  await expect(written).toBeVisible()
  await expect(written.getByRole('link', { name })).toBeVisible()
  await expect(written.getByText(/af Signe Dahl/)).toBeVisible()
  await expect(written.getByText('Skrevet', { exact: true })).toBeVisible()
  // The text keeps its line break.
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText(), the rendered text with its line breaks
  expect(await written.locator('.note__text').innerText()).toBe(text)
  expect(await seriousA11yViolations(page)).toEqual([])

  await page.reload()
  await expect(written).toBeVisible()
  await written.getByRole('link', { name }).click()
  await expect(page).toHaveURL(/\/person\/[^/]+\/notes$/)
  await expect(page.getByRole('heading', { level: 2, name: 'Dagbøger for borger' })).toBeVisible()
  await expect(entry(page, first)).toBeVisible()
  // On the person's own diary the person is not asked for: the entry is theirs.
  await expect(page.getByRole('form', { name: 'Skriv i dagbogen' }).getByLabel('Borger')).toHaveCount(0)
  expect(await seriousA11yViolations(page)).toEqual([])
})

test('an employee corrects an entry and the earlier text stays reachable; a superuser deletes it with a reason', async ({
  page,
  browser,
  baseURL,
}) => {
  await signIn(page, ACCOUNTS.employee.email)
  await page.goto('/notes')
  const first = unique('Urolig om aftenen.')
  const yesterday = await page.evaluate(() =>
    new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Copenhagen' }).format(Date.now() - 86_400_000),
  )
  await write(page, first, yesterday)
  const written = entry(page, first)
  await expect(written.getByText(/^Tilbagedateret · skrevet /)).toBeVisible()

  await written.getByRole('button', { name: 'Ret' }).click()
  const dialog = page.getByRole('dialog', { name: 'Ret notat' })
  await expect(dialog.getByText('Den tidligere tekst gemmes og kan altid ses.')).toBeVisible()
  await dialog.getByRole('button', { name: 'Gem rettelse' }).click()
  await expect(dialog.getByText('Teksten er ikke ændret')).toBeVisible()
  const second = unique('Rolig om aftenen efter en samtale.')
  await dialog.getByLabel('Notat').fill(second)
  await dialog.getByRole('button', { name: 'Gem rettelse' }).click()
  await expect(page.getByText('Notatet blev rettet')).toBeVisible()
  const corrected = entry(page, second)
  await expect(corrected.getByText(/^Rettet .* af Signe Dahl$/)).toBeVisible()
  await expect(corrected.getByText(first)).toHaveCount(0)
  await corrected.getByRole('button', { name: 'Vis tidligere version' }).click()
  await expect(corrected.getByText(first)).toBeVisible()
  await expect(corrected.getByText(/^Indtil .*, rettet af Signe Dahl$/)).toBeVisible()
  // An employee may not delete.
  await expect(corrected.getByRole('button', { name: 'Slet' })).toHaveCount(0)

  const other = await browser.newContext({ baseURL, bypassCSP: true })
  const superuser = await other.newPage()
  await signIn(superuser, ACCOUNTS.superuser.email)
  if (!isNarrow(superuser))
    await superuser.getByRole('combobox', { name: 'Lokation' }).selectOption({ label: 'Bostedet Solsikken' })
  await superuser.goto(`/notes?q=${encodeURIComponent(second.split(' ').at(-1) as string)}&period=7`)
  const seen = entry(superuser, second)
  await seen.getByRole('button', { name: 'Slet' }).click()
  const remove = superuser.getByRole('dialog', { name: 'Slet notat' })
  await remove.getByRole('button', { name: 'Slet notat' }).click()
  await expect(remove.getByText('Skriv en årsag')).toBeVisible()
  await remove.getByLabel('Årsag').fill('Skrevet på den forkerte borger')
  await remove.getByRole('button', { name: 'Slet notat' }).click()
  await expect(superuser.getByText('Notatet blev slettet')).toBeVisible()
  const marker = superuser.getByText(/^Slettet .* af Jesper Kjær: Skrevet på den forkerte borger$/)
  await expect(marker).toBeVisible()
  await other.close()

  // The employee sees the marker in the entry's place after a reload.
  await page.reload()
  await expect(page.getByText(/^Slettet .* af Jesper Kjær: Skrevet på den forkerte borger$/).first()).toBeVisible()
  await expect(page.getByText(second, { exact: true })).toHaveCount(0)
})

test('the filters live in the URL: persons, period and text; "Vis flere" loads the next page', async ({ page }) => {
  await signIn(page, ACCOUNTS.employee.email)
  await page.goto('/notes?period=90')
  const entries = page.getByRole('article')
  await expect(entries).toHaveCount(25)
  await page.getByRole('button', { name: 'Vis flere' }).click()
  await expect(entries).toHaveCount(50)

  const filters = page.getByRole('form', { name: 'Filtre' })
  await filters.getByText('Alle borgere').click()
  const choice = filters.getByRole('checkbox').first()
  const name = (await choice.locator('xpath=..').textContent()) ?? ''
  await choice.check()
  await filters.getByRole('radio', { name: '7 dage' }).check()
  await filters.getByRole('button', { name: 'Vis' }).click()
  await expect(page).toHaveURL(/persons=[^&]+/)
  await expect(page).toHaveURL(/period=7/)
  await expect(entries.first()).toBeVisible()
  for (const link of await entries.getByRole('link').allTextContents()) expect(link).toBe(name)

  await page.goBack()
  await expect(page).toHaveURL(/\/notes\?period=90$/)
  await expect(filters.getByText('Alle borgere')).toBeVisible()

  await filters.getByLabel('Søg i notaterne').fill('ingen-notat-siger-dette')
  await filters.getByRole('button', { name: 'Vis' }).click()
  await expect(page.getByText('Ingen notater i perioden indeholder “ingen-notat-siger-dette”.')).toBeVisible()
  await expect(page).toHaveURL(/q=ingen-notat-siger-dette/)
})

test('a draft survives a reload, and leaving with unsaved text asks first', async ({ page }) => {
  await signIn(page, ACCOUNTS.employee.email)
  await page.goto('/notes')
  const editor = page.getByRole('form', { name: 'Skriv i dagbogen' })
  await expect(editor.getByLabel('Borger')).toBeVisible()
  await editor.getByLabel('Borger').selectOption({ index: 2 })
  const chosen = await editor.getByLabel('Borger').inputValue()
  await editor.getByLabel('Notat').fill('Halvt skrevet notat')
  page.on('dialog', (dialog) => void dialog.accept())
  await page.reload()
  await expect(editor.getByLabel('Borger')).toHaveValue(chosen)
  await expect(editor.getByLabel('Notat')).toHaveValue('Halvt skrevet notat')

  if (isNarrow(page)) await menuButton(page).click()
  await page.getByRole('link', { name: 'Dagsoversigt' }).first().click()
  const leave = page.getByRole('dialog', { name: 'Forlad siden?' })
  await expect(leave).toContainText('Du har et notat, der ikke er gemt. Vil du forlade siden?')
  await leave.getByRole('button', { name: 'Bliv på siden' }).click()
  await expect(page).toHaveURL(/\/notes$/)
  await expect(editor.getByLabel('Notat')).toHaveValue('Halvt skrevet notat')
})

test('the counter shows near the limit, and more than 5,000 characters are refused with a message', async ({
  page,
}) => {
  await signIn(page, ACCOUNTS.employee.email)
  await page.goto('/notes')
  const editor = page.getByRole('form', { name: 'Skriv i dagbogen' })
  await editor.getByLabel('Borger').selectOption({ index: 1 })
  await editor.getByLabel('Notat').fill('x'.repeat(4400))
  await expect(editor.getByText(/ af 5000 tegn$/)).toHaveCount(0)
  await editor.getByLabel('Notat').fill('x'.repeat(5001))
  await expect(editor.getByText('5001 af 5000 tegn')).toBeVisible()
  await editor.getByRole('button', { name: 'Gem notat' }).click()
  await expect(editor.getByText('Notatet må højst være 5000 tegn')).toBeVisible()
  await editor.getByLabel('Notat').fill('   ')
  await editor.getByRole('button', { name: 'Gem notat' }).click()
  await expect(editor.getByText('Skriv et notat')).toBeVisible()
})

test('dictation on the device fills the editor, stops on Escape, and the entry is saved as dictated', async ({
  page,
}) => {
  await page.addInitScript(installFakeSpeech, 'available')
  await signIn(page, ACCOUNTS.employee.email)
  await page.goto('/notes')
  const editor = page.getByRole('form', { name: 'Skriv i dagbogen' })
  await editor.getByLabel('Borger').selectOption({ index: 3 })
  await expect(editor.getByText('Tale genkendes på enheden og sendes ingen steder hen.')).toBeVisible()
  const marker = unique('Efter diktat:')
  await editor.getByLabel('Notat').fill(marker)
  await editor.getByRole('button', { name: 'Diktér' }).click()
  await expect(editor.getByRole('button', { name: 'Stop diktat' })).toHaveAttribute('aria-pressed', 'true')
  await expect(editor.getByLabel('Notat')).toHaveValue(`${marker} Spiste morgenmad med god appetit.`)
  await editor.getByLabel('Notat').press('Escape')
  await expect(editor.getByRole('button', { name: 'Diktér' })).toBeVisible()
  expect(await page.evaluate(() => (window as unknown as { dictation: unknown[] }).dictation)).toEqual([
    { lang: 'da-DK', processLocally: true },
  ])
  await editor.getByRole('button', { name: 'Gem notat' }).click()
  await expect(page.getByText('Notatet blev gemt')).toBeVisible()
  await expect(entry(page, marker).getByText('Dikteret', { exact: true })).toBeVisible()
})

test('where Danish is not on the device and the location has not allowed cloud dictation, the editor says why', async ({
  page,
}) => {
  await page.addInitScript(installFakeSpeech, 'unavailable')
  await signIn(page, ACCOUNTS.employee.email)
  await page.goto('/notes')
  const editor = page.getByRole('form', { name: 'Skriv i dagbogen' })
  await expect(editor.getByText(/^Diktat er ikke slået til for denne lokation/)).toBeVisible()
  await expect(editor.getByRole('button', { name: 'Diktér' })).toHaveCount(0)
})
