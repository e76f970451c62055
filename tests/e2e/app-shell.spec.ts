/// <reference lib="dom" />
import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from '@playwright/test'
import { expect, mainNav, seriousA11yViolations, signIn, test } from './fixtures.ts'
import { createOwnLocation } from './own-location.ts'
import { allowOfflineErrors, logEntries, openListening, registerGoodDay, row, storedDocs as stored } from './tablets.ts'

// axe is injected as a script tag, which the app's CSP (script-src 'self') would block. The app
// shell's worker is blocked for the other journeys (playwright.config.ts); these are about it.
test.use({ bypassCSP: true, serviceWorkers: 'allow' })

const WAITING = 'Gemmes, når der er forbindelse'

/** Until the app shell's worker has kept this build and answers for the page. */
async function shellKept(page: Page): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const registration = await navigator.serviceWorker.getRegistration()
          // Its build kept whole (the worker's mark), and the page under its control.
          const whole = (await (await caches.open('bosted-builds')).keys()).length > 0
          return registration?.active?.state === 'activated' && navigator.serviceWorker.controller !== null && whole
        }),
      { timeout: 20_000 },
    )
    .toBe(true)
}

/** The roots of the care pages' data kept on the device for a start without a connection. */
const keptRoots = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string[]>((resolve) => {
        const opening = indexedDB.open('bosted-pages')
        opening.onsuccess = () => {
          const db = opening.result
          if (!db.objectStoreNames.contains('kept')) return resolve([])
          const reading = db.transaction('kept').objectStore('kept').get('queries')
          reading.onsuccess = () =>
            resolve(
              ((reading.result?.queries ?? []) as { queryKey: unknown[] }[]).map((query) => String(query.queryKey[0])),
            )
        }
        opening.onerror = () => resolve([])
      }),
  )

test('the app is installable: a manifest in Danish with its icons, and a worker that keeps the build', async ({
  page,
}) => {
  await signIn(page, (await createOwnLocation({ persons: [] })).email)
  await shellKept(page)
  const manifest = await (await page.request.get('/manifest.webmanifest')).json()
  expect(manifest).toMatchObject({ name: 'Bosted', lang: 'da', display: 'standalone', start_url: '/' })
  for (const icon of manifest.icons as { src: string; type: string }[]) {
    const response = await page.request.get(icon.src)
    expect(response.status(), icon.src).toBe(200)
    expect(response.headers()['content-type']).toContain(icon.type)
  }
  // Chromium's own verdict, as its install prompt uses it.
  const cdp = await page.context().newCDPSession(page)
  const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
    installabilityErrors: { errorId: string }[]
  }
  // A Playwright context is an incognito profile, where Chromium installs nothing: its one objection.
  expect(installabilityErrors.map((error) => error.errorId)).toEqual(['in-incognito'])

  // The next load takes the build's files from the kept caches by the browser's own static route
  // (ADR 0034): the worker's code does not run for them.
  type Routed = { url: string; serviceWorkerRouterInfo?: { matchedSourceType?: string; actualSourceType?: string } }
  const files: Routed[] = []
  await cdp.send('Network.enable')
  cdp.on('Network.responseReceived', ({ response }) => {
    if (new URL(response.url).pathname.startsWith('/assets/')) files.push(response as Routed)
  })
  await page.reload()
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  expect(files.length).toBeGreaterThan(5)
  expect(
    files.filter((file) => file.serviceWorkerRouterInfo?.actualSourceType !== 'cache').map((file) => file.url),
  ).toEqual([])
})

test('after one visit online the app opens offline: a registration and a diary entry made offline stay waiting across a reload, and are stored once when the connection is back', {
  tag: '@shell',
}, async ({ page, context, allowConsoleErrors }) => {
  allowOfflineErrors(allowConsoleErrors)
  // Requests the page makes while offline that the worker does not answer (the api, Firestore, Auth).
  allowConsoleErrors(/Failed to load resource: net::ERR_FAILED/)
  const own = await createOwnLocation({
    reminderTime: null,
    role: 'superuser',
    persons: [
      { firstName: 'Gitte', lastName: 'Gram', createdAt: '2024-01-01T09:00:00.000Z' },
      { firstName: 'Hans', lastName: 'Holm', createdAt: '2024-01-01T09:00:00.000Z' },
    ],
  })
  const [gitteId] = own.personIds as [string]
  await signIn(page, own.email)
  await openListening(page, '/daily')
  // Dagbøger once, in the same visit: its list is then in the app and kept on the tablet.
  /** Goes to a page of the main menu (behind the menu button on a narrow screen). */
  const goTo = async (name: string) => (await mainNav(page)).getByRole('link', { name }).click()
  await goTo('Dagbøger')
  await expect(page.getByText('Ingen notater i perioden.')).toBeVisible()
  await goTo('Dagsoversigt')
  await shellKept(page)
  await expect
    .poll(() => keptRoots(page), { timeout: 10_000 })
    .toEqual(expect.arrayContaining(['registrations', 'notes']))

  await context.setOffline(true)
  const gitte = row(page, 'Gitte Gram')
  await registerGoodDay(page, 'Gitte Gram', 'Malede i værkstedet')
  await expect(gitte.getByText(WAITING)).toBeVisible()

  await goTo('Dagbøger')
  const text = 'Spiste frokost i haven, skrevet uden forbindelse'
  const editor = page.getByRole('form', { name: 'Skriv i dagbogen' })
  await editor.getByLabel('Borger').selectOption({ label: 'Gitte Gram' })
  await editor.getByLabel('Notat').fill(text)
  await editor.getByRole('button', { name: 'Gem notat' }).click()
  const entry = page.getByRole('article').filter({ hasText: text })
  await expect(entry.getByText(WAITING)).toBeVisible()
  await expect(page.getByText('Notatet gemmes, når der er forbindelse')).toBeVisible()
  await expect(editor.getByLabel('Notat')).toHaveValue('')

  // A reload without a connection: the app opens from the tablet, the entry and the registration still waiting.
  await page.reload()
  await expect(page.getByRole('alert').filter({ hasText: /^Ingen forbindelse/ })).toBeVisible()
  await expect(page.getByRole('heading', { level: 1, name: 'Dagbøger' })).toBeVisible()
  await expect(entry.getByText(WAITING)).toBeVisible()
  expect(await seriousA11yViolations(page)).toEqual([])
  await goTo('Dagsoversigt')
  await expect(gitte.getByText('Malede i værkstedet')).toBeVisible()
  await expect(gitte.getByText(WAITING)).toBeVisible()
  expect(await stored(gitteId, 'registrations')).toEqual([])
  expect(await stored(gitteId, 'notes')).toEqual([])

  // Back online: each delivered once, said as saved, in Gitte's Adgangslog as the writer's.
  await context.setOffline(false)
  await expect(gitte.getByText('Gemt', { exact: true })).toBeVisible({ timeout: 15_000 })
  await expect.poll(async () => (await stored(gitteId, 'registrations')).length, { timeout: 10_000 }).toBe(1)
  await expect.poll(async () => (await stored(gitteId, 'notes')).length, { timeout: 10_000 }).toBe(1)
  expect((await stored(gitteId, 'notes'))[0]).toMatchObject({ text, authorName: own.staffName })
  await page.goto(`/person/${gitteId}/settings/access-log`)
  const entries = logEntries(page)
  await expect(entries.first()).toBeVisible()
  await expect(entries.filter({ hasText: /^Ida Test \(superbruger\) oprettede 1 registrering · / })).toHaveCount(1)
  await expect(entries.filter({ hasText: /^Ida Test \(superbruger\) oprettede 1 dagbogsnotat · / })).toHaveCount(1)
})

/**
 * A deploy of a second build of the app, labelled `label` (<html data-build>), into the suite's own
 * copy of the built app (E2E_WEB_ROOT, global-setup.ts): the new build's files in place of the old
 * ones, the server's /config.json kept. Returns how to put the first build back.
 */
function deployNewBuild(label: string): () => void {
  const www = process.env.E2E_WEB_ROOT ?? ''
  const built = mkdtempSync(join(tmpdir(), 'bosted-next-build-'))
  const before = mkdtempSync(join(tmpdir(), 'bosted-first-build-'))
  execFileSync('npx', ['vite', 'build', '--outDir', built, '--emptyOutDir'], {
    cwd: fileURLToPath(new URL('../../web', import.meta.url)),
    env: { ...process.env, VITE_BUILD_LABEL: label },
    stdio: 'pipe',
  })
  cpSync(www, before, { recursive: true })
  const replaceWith = (source: string) => {
    for (const entry of readdirSync(www)) if (entry !== 'config.json') rmSync(join(www, entry), { recursive: true })
    cpSync(source, www, { recursive: true, filter: (path) => !/config\.json$|\.vite/.test(path) })
  }
  replaceWith(built)
  return () => {
    replaceWith(before)
    rmSync(built, { recursive: true, force: true })
    rmSync(before, { recursive: true, force: true })
  }
}

test('a new build is taken at the next load, offline too; the page open on the one before keeps working', {
  tag: '@shell',
}, async ({ page, context, allowConsoleErrors }) => {
  allowOfflineErrors(allowConsoleErrors)
  // A second build of the app is made here (a few seconds).
  test.setTimeout(90_000)
  const own = await createOwnLocation({
    reminderTime: null,
    persons: [{ firstName: 'Inge', lastName: 'Iversen', createdAt: '2024-01-01T09:00:00.000Z' }],
  })
  await signIn(page, own.email)
  await expect(page.getByRole('heading', { level: 2, name: 'Inge Iversen' })).toBeVisible()
  await shellKept(page)
  const build = () => page.evaluate(() => document.documentElement.dataset.build ?? 'first build')
  expect(await build()).toBe('first build')

  const undo = deployNewBuild('second build')
  try {
    // The worker finds the new build and keeps it whole beside the first.
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update())
    await expect
      .poll(() => page.evaluate(async () => (await (await caches.open('bosted-builds')).keys()).length), {
        timeout: 20_000,
      })
      .toBe(2)
    // The page open on the first build goes on with its own code: a route it had not opened yet.
    await (await mainNav(page)).getByRole('link', { name: 'Statistik' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Statistik' })).toBeVisible()
    expect(await build()).toBe('first build')

    // The next load is the new build, whole.
    await page.goto('/daily')
    await expect(page.getByRole('heading', { level: 2, name: 'Inge Iversen' })).toBeVisible()
    expect(await build()).toBe('second build')

    // Right after the update the wifi drops: the next load is the new build, from its kept files.
    await context.setOffline(true)
    await page.reload()
    await expect(page.getByRole('heading', { level: 2, name: 'Inge Iversen' })).toBeVisible()
    expect(await build()).toBe('second build')
    await context.setOffline(false)
  } finally {
    // The first build back: the journeys after this one are served it.
    undo()
  }
})
