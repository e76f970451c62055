/// <reference lib="dom" />
import type { Browser, Page } from '@playwright/test'
import { signIn, test } from './fixtures.ts'
import { asAdmin } from './own-location.ts'

/**
 * The shared tablets of a shift, for the live and offline journeys (issue 36): a second tablet beside
 * the test's own, a person's card on the Dagsoversigt, a page once it listens, what the backend holds.
 */

/** A second tablet: its own browser context (own cookies, own Firebase session), signed in as `email`. */
export async function secondTablet(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({
    ...test.info().project.use,
    baseURL: test.info().project.use.baseURL,
    locale: 'da-DK',
    timezoneId: 'Europe/Copenhagen',
    bypassCSP: true,
  })
  const page = await context.newPage()
  await signIn(page, email)
  return page
}

/** A person's card on the Dagsoversigt. */
export const row = (page: Page, name: string) =>
  page
    .getByRole('list', { name: 'Borgere' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name }) })

/** Opens `path` and waits until the page listens: the listening code and the full SDK are then loaded. */
export async function openListening(page: Page, path: string): Promise<void> {
  const listening = page.waitForRequest(/google\.firestore\.v1\.Firestore\/Listen\/channel/)
  await page.goto(path)
  await listening
}

/** The registration form's code: its own chunk, which /daily fetches 1.5 s after its rows show. */
export const REGISTRATION_FORM_CODE = /\/assets\/register-dialog-[\w-]+\.js$/

/**
 * Resolves once the registration form's code has arrived; call it before the page loads. A tablet
 * that goes offline before then is told so in place of the form until it is online again
 * (offline.spec.ts).
 */
export async function registrationFormLoaded(page: Page): Promise<void> {
  await page.waitForResponse(REGISTRATION_FORM_CODE)
}

/** A person's stored registrations or diary entries (firebase-admin, beside the app). */
export const storedDocs = (personId: string, collection: 'registrations' | 'notes') =>
  asAdmin(async (db) => (await db.collection(`persons/${personId}/${collection}`).get()).docs.map((doc) => doc.data()))

/**
 * What the browser and the SDKs print while the tablet is offline (each tries again by itself):
 * the requests that could not be sent, the listener that cannot reach Firestore, a Lite read on its
 * way when the network went (a read ahead at idle, the start's read of the user), and the listener's
 * connectivity ping.
 */
export function allowOfflineErrors(allowConsoleErrors: (pattern: RegExp) => void): void {
  allowConsoleErrors(/ERR_INTERNET_DISCONNECTED/)
  allowConsoleErrors(/@firebase\/firestore: .*Could not reach Cloud Firestore backend/)
  allowConsoleErrors(/Firestore \(.*_lite\): RPC_ERROR HTTP error has no status/)
  // The listening SDK's connectivity ping to google.com after a network error. The app's CSP refuses
  // it (third-party.spec.ts); specs that bypass the CSP for axe let it out, where the test machine has
  // no name for it or no network.
  allowConsoleErrors(/Failed to load resource: net::ERR_\w+ \[https:\/\/www\.google\.com\/images\/cleardot\.gif/)
}

/** The entries of the Adgangslog on screen. */
export const logEntries = (page: Page) =>
  page.getByRole('list', { name: 'Poster i adgangsloggen' }).getByRole('listitem')

/** Registers "God dag" with `comment` for `name` from the Dagsoversigt's card (the location's option). */
export async function registerGoodDay(page: Page, name: string, comment: string): Promise<void> {
  await row(page, name)
    .getByRole('button', { name: `Registrer for ${name}` })
    .click()
  const dialog = page.getByRole('dialog', { name: `Registrer svar for ${name}` })
  await dialog.getByRole('radio', { name: /God dag/ }).check()
  await dialog.getByLabel('Kommentar (valgfri)').fill(comment)
  await dialog.getByRole('button', { name: 'Gem' }).click()
}
