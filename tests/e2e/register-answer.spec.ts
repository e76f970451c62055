/// <reference lib="dom" />
import type { Locator, Page } from '@playwright/test'
import { ACCOUNTS, expect, seriousA11yViolations, signIn, test } from './fixtures.ts'

// The seed writes 90 days of history back from today; these days lie before it, so every person of
// Bostedet Solsikken (the employee's one location) starts them without registrations.
// Each test has its own day, as the suite shares one stack.
const JOURNEY_DAY = '2025-03-03'
const JOURNEY_DAY_TABLET = '2025-04-01'
const CORRECT_DAY = '2025-03-04'
const FILTER_DAY = '2025-03-05'
const WEEK_DAY = '2025-03-12'
const SWITCH_DAY = '2025-03-20'
const TOAST_DAY = '2025-03-25'
// A person of Egebakken, where the employee does not work.
const OTHER_LOCATION_PERSON = 'demo-borger13'

// axe is injected as a script tag, which the app's CSP (script-src 'self') would block.
test.use({ bypassCSP: true })

const rows = (page: Page) => page.getByRole('list', { name: 'Borgere' }).getByRole('article')

async function openDay(page: Page, day: string): Promise<Locator> {
  await page.goto(`/daily?day=${day}`)
  await expect(rows(page).first()).toBeVisible()
  return rows(page).first()
}

/** The answer as a registration shows it: its text and, in brackets, its value. */
const answerWithValue = (answer: string) =>
  new RegExp(`^${answer.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(-?\\d+\\)$`)

// Persons other specs create today count on these past days as 'oprettet senere', not as missing.
const summaryOf = (page: Page) => page.getByText(/^\d+ af \d+ registreret( · \d+ mangler)?( · \d+ oprettet senere)?$/)

/**
 * The summary of a past day as expected: each count that is not zero is named; persons other specs
 * created after the day are counted as such ('oprettet senere'), whatever their number.
 */
const summaryText = (registered: number, count: number) =>
  new RegExp(
    `^${registered} af ${count} registreret${count > registered ? ` · ${count - registered} mangler` : ''}( · \\d+ oprettet senere)?$`,
  )

/** The number of active persons the summary counts (other specs may add persons to the demo locations). */
async function personCount(page: Page): Promise<number> {
  await expect(summaryOf(page)).toBeVisible()
  return Number((await summaryOf(page).textContent())?.match(/ af (\d+) /)?.[1])
}

async function nameOf(row: Locator): Promise<string> {
  return (await row.getByRole('heading', { level: 2 }).textContent()) ?? ''
}

/** Registers the first answer option for the person of `row`, with a comment, and waits for the toast. */
async function register(page: Page, row: Locator, comment: string): Promise<string> {
  const name = await nameOf(row)
  await row.getByRole('button', { name: `Registrer for ${name}` }).click()
  const dialog = page.getByRole('dialog', { name: `Registrer svar for ${name}` })
  const first = dialog.getByRole('radio').first()
  const answer = (await first.locator('xpath=..').locator('span').first().textContent()) ?? ''
  await first.check()
  await dialog.getByLabel('Kommentar (valgfri)').fill(comment)
  await dialog.getByRole('button', { name: 'Gem' }).click()
  await expect(page.getByText('Registreringen blev gemt')).toBeVisible()
  return answer
}

test(
  'an employee registers an answer; it stays after a reload and a superuser sees it too',
  {
    tag: '@tablet',
  },
  async ({ page, browser, baseURL }, testInfo) => {
    // The tablet project runs this journey on the same stack: a day of its own.
    const day = testInfo.project.name === 'desktop' ? JOURNEY_DAY : JOURNEY_DAY_TABLET
    await signIn(page, ACCOUNTS.employee.email)
    const row = await openDay(page, day)
    const count = await personCount(page)
    await expect(summaryOf(page)).toHaveText(summaryText(0, count))
    await expect(row.getByText('Mangler registrering')).toBeVisible()
    const name = await nameOf(row)

    const answer = await register(page, row, 'Rolig aften med besøg')
    const registered = rows(page).filter({ has: page.getByRole('heading', { name }) })
    await expect(registered.getByText('Registreret', { exact: true })).toBeVisible()
    await expect(registered.getByText(answerWithValue(answer))).toBeVisible()
    await expect(registered.getByText('Rolig aften med besøg')).toBeVisible()
    // Registered after the day: shown as such.
    await expect(registered.getByText(/registreret \S+\. \d+\./)).toBeVisible()
    await expect(registered.getByText(/af Signe Dahl/)).toBeVisible()
    await expect(summaryOf(page)).toHaveText(summaryText(1, count))

    await page.reload()
    await expect(registered.getByText('Rolig aften med besøg')).toBeVisible()
    await expect(summaryOf(page)).toHaveText(summaryText(1, count))

    const other = await browser.newContext({ baseURL, bypassCSP: true })
    const superuser = await other.newPage()
    await signIn(superuser, ACCOUNTS.superuser.email)
    await openDay(superuser, day)
    const seen = rows(superuser).filter({ has: superuser.getByRole('heading', { name }) })
    await expect(seen.getByText('Rolig aften med besøg')).toBeVisible()
    await expect(seen.getByText(/af Signe Dahl/)).toBeVisible()
    await other.close()
  },
)

test('an employee corrects their registration and deletes it after confirming', async ({ page }) => {
  await signIn(page, ACCOUNTS.employee.email)
  const row = await openDay(page, CORRECT_DAY)
  const count = await personCount(page)
  const name = await nameOf(row)
  const answer = await register(page, row, 'Første udgave')
  const registered = rows(page).filter({ has: page.getByRole('heading', { name }) })
  await expect(registered.getByText('Første udgave')).toBeVisible()

  await registered.getByRole('button', { name: `Ret: ${answer}` }).click()
  const dialog = page.getByRole('dialog', { name: 'Ret registrering' })
  await expect(dialog.getByRole('radio', { checked: true })).toHaveCount(1)
  await dialog.getByLabel('Kommentar (valgfri)').fill('Rettet udgave')
  await dialog.getByRole('button', { name: 'Gem' }).click()
  await expect(page.getByText('Registreringen blev rettet')).toBeVisible()
  await expect(registered.getByText('Rettet udgave')).toBeVisible()
  await expect(registered.getByText('Første udgave')).toHaveCount(0)

  await registered.getByRole('button', { name: `Slet: ${answer}` }).click()
  const confirm = page.getByRole('dialog', { name: 'Slet' })
  await expect(confirm.getByText('Vil du slette registreringen? Det kan ikke fortrydes.')).toBeVisible()
  await confirm.getByRole('button', { name: 'Annuller' }).click()
  await expect(registered.getByText('Rettet udgave')).toBeVisible()

  await registered.getByRole('button', { name: `Slet: ${answer}` }).click()
  await confirm.getByRole('button', { name: 'Slet' }).click()
  await expect(page.getByText('Registreringen blev slettet')).toBeVisible()
  await expect(registered.getByText('Rettet udgave')).toHaveCount(0)
  await expect(registered.getByText('Mangler registrering')).toBeVisible()
  await expect(summaryOf(page)).toHaveText(summaryText(0, count))
})

test('the day is kept in the URL, moves with previous and next, and the filter shows only who is missing', async ({
  page,
}) => {
  await signIn(page, ACCOUNTS.employee.email)
  const row = await openDay(page, FILTER_DAY)
  const count = await personCount(page)
  await expect(page.getByText('onsdag den 5. marts 2025')).toBeVisible()
  const name = await nameOf(row)
  await register(page, row, 'Med på tur')

  // The filter is kept in the URL; the choice shows once the navigation is done.
  await page.getByRole('radio', { name: 'Mangler' }).click()
  await expect(page.getByRole('radio', { name: 'Mangler' })).toBeChecked()
  await expect(page).toHaveURL(/filter=missing/)
  await expect(rows(page)).toHaveCount(count - 1)
  await expect(page.getByRole('heading', { name, exact: true })).toHaveCount(0)
  await page.getByRole('radio', { name: 'Alle' }).click()
  await expect(page.getByRole('radio', { name: 'Alle' })).toBeChecked()
  await expect(rows(page)).toHaveCount(count)

  await page.getByRole('button', { name: 'Næste dag' }).click()
  await expect(page).toHaveURL(/day=2025-03-06/)
  await expect(page.getByText('torsdag den 6. marts 2025')).toBeVisible()
  await expect(summaryOf(page)).toHaveText(summaryText(0, count))
  await page.goBack()
  await expect(page).toHaveURL(/day=2025-03-05/)
  await expect(summaryOf(page)).toHaveText(summaryText(1, count))
  await page.getByRole('button', { name: 'Forrige dag' }).click()
  await expect(page).toHaveURL(/day=2025-03-04/)
  await page.getByLabel('Dag', { exact: true }).fill('2025-03-05')
  await expect(page).toHaveURL(/day=2025-03-05/)
  await expect(summaryOf(page)).toHaveText(summaryText(1, count))

  // A day that is no day falls back to today.
  await page.goto('/daily?day=2025-02-30')
  await expect(page.getByRole('button', { name: 'I dag' })).toBeDisabled()
  await expect(page).not.toHaveURL(/day=/)
})

test("another location's person is a 404 page for an employee", async ({ page, allowConsoleErrors }) => {
  // The browser's own line for the read the rules deny.
  allowConsoleErrors(/status of 403 .*documents:batchGet/)
  await signIn(page, ACCOUNTS.employee.email)
  await page.goto(`/person/${OTHER_LOCATION_PERSON}/daily`)
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible()
  await expect(page.getByText(`Page Not Found: /person/${OTHER_LOCATION_PERSON}/daily`)).toBeVisible()
  await page.goto('/person/no-such-person/daily')
  await expect(page.getByText('Page Not Found: /person/no-such-person/daily')).toBeVisible()
})

test("a person's week: registering for a day of it, a 30-day chart, and the tabs", async ({ page }) => {
  await signIn(page, ACCOUNTS.employee.email)
  const row = await openDay(page, WEEK_DAY)
  const name = await nameOf(row)
  await row.getByRole('link', { name }).click()
  await expect(page).toHaveURL(/\/person\/[^/]+\/daily$/)
  await expect(page.getByText(name, { exact: true })).toBeVisible()
  await expect(page.getByText('Bostedet Solsikken', { exact: true }).last()).toBeVisible()
  const tabs = page.getByRole('main').getByRole('navigation', { name: 'Borger' })
  await expect(tabs.getByRole('link')).toHaveText(['Dagsoversigt', 'Dagbog', 'Indstillinger'])
  await expect(page.getByRole('img', { name: /Værdier de sidste 30 dage/ })).toBeVisible()

  await page.goto(`${new URL(page.url()).pathname}?week=${WEEK_DAY}`)
  await expect(page.getByRole('heading', { name: /^Uge 11:/ })).toBeVisible()
  const wednesday = page.getByRole('region', { name: 'onsdag den 12. marts 2025' })
  await expect(wednesday.getByText('Ingen registreringer denne dag.')).toBeVisible()
  await wednesday.getByRole('button', { name: 'Registrer onsdag den 12. marts 2025' }).click()
  const dialog = page.getByRole('dialog', { name: `Registrer svar for ${name}` })
  await dialog.getByRole('radio').first().check()
  await dialog.getByRole('button', { name: 'Gem' }).click()
  await expect(page.getByText('Registreringen blev gemt')).toBeVisible()
  await expect(wednesday.getByRole('listitem')).toHaveCount(1)

  await page.getByRole('button', { name: 'Forrige uge' }).click()
  await expect(page).toHaveURL(/week=2025-03-03/)
  await expect(page.getByRole('heading', { name: /^Uge 10:/ })).toBeVisible()
})

test('the daily overview and a person’s week have no serious or critical accessibility violations', async ({
  page,
}) => {
  await signIn(page, ACCOUNTS.employee.email)
  const row = await openDay(page, JOURNEY_DAY)
  expect(await seriousA11yViolations(page)).toEqual([])
  const name = await nameOf(row)
  await row.getByRole('button', { name: `Registrer for ${name}` }).click()
  await expect(page.getByRole('dialog').getByRole('radio').first()).toBeVisible()
  expect(await seriousA11yViolations(page)).toEqual([])
  await page.keyboard.press('Escape')
  await row.getByRole('link', { name }).click()
  await expect(page.getByRole('img', { name: /Værdier de sidste 30 dage/ })).toBeVisible()
  expect(await seriousA11yViolations(page)).toEqual([])
})

test('the success toast after saving is readable: no serious or critical accessibility violations', async ({
  page,
}) => {
  await signIn(page, ACCOUNTS.employee.email)
  const row = await openDay(page, TOAST_DAY)
  await register(page, row, 'Kontrast')
  // The toast is on screen (register waited for it) and has finished sliding in: axe judges its colours
  // as the user reads them, not half faded in (a transition's first frames have too little contrast).
  const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'Registreringen blev gemt' })
  await expect(toast).toHaveAttribute('data-mounted', 'true')
  // Its transitions and fades still running; sonner's hidden loading bars spin for ever and are not read.
  const settling = () =>
    toast.evaluate(
      (element) =>
        element
          .getAnimations({ subtree: true })
          .filter((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity).length,
    )
  await expect.poll(settling).toBe(0)
  expect(await seriousA11yViolations(page)).toEqual([])
})

test('switching the location shows that location’s persons at once, without the previous list', async ({ page }) => {
  await signIn(page, ACCOUNTS.superuser.email)
  await openDay(page, SWITCH_DAY)
  const before = await summaryOf(page).textContent()
  const solsikken = await rows(page).getByRole('heading').allTextContents()
  await page.getByRole('banner').getByRole('combobox', { name: 'Lokation' }).selectOption({ label: 'Egebakken' })
  await expect(summaryOf(page)).not.toHaveText(before ?? '')
  const count = await personCount(page)
  await expect(rows(page)).toHaveCount(count)
  const egebakken = await rows(page).getByRole('heading').allTextContents()
  expect(egebakken.filter((name) => solsikken.includes(name))).toEqual([])
})

test('a failed fetch shows a notice with Prøv igen, never an empty list; trying again loads the day', async ({
  page,
  allowConsoleErrors,
}) => {
  // The browser's own lines for the queries answered 503 (Firestore unavailable): the day's, and the
  // answer options' read ahead at idle (under a location or a person).
  allowConsoleErrors(/status of 503 .*\/documents(\/[^?]*)?:runQuery/)
  await signIn(page, ACCOUNTS.employee.email)
  let failing = true
  const unavailable = { code: 503, message: 'The service is currently unavailable.', status: 'UNAVAILABLE' }
  await page.route(/:runQuery/, (route) =>
    failing ? route.fulfill({ status: 503, json: { error: unavailable } }) : route.continue(),
  )
  await page.goto(`/daily?day=${SWITCH_DAY}`)
  await expect(page.getByRole('alert').getByText('Dagsoversigten kunne ikke hentes.')).toBeVisible({ timeout: 20_000 })
  await expect(page.getByRole('list', { name: 'Borgere' })).toHaveCount(0)
  failing = false
  await page.getByRole('button', { name: 'Prøv igen' }).click()
  await expect(rows(page).first()).toBeVisible()
  await expect(rows(page)).toHaveCount(await personCount(page))
})
