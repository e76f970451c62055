import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import { launchChromium } from '@bosted/stack/chromium'
import { build } from 'esbuild'
import type { Browser, Page } from 'playwright'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { signCustomToken } from '../src/auth/custom-token.ts'
import type { EmulatorLite } from '../src/index.ts'
import { idTokenFor, startWithRules } from './signed-in.ts'

// The full web SDK as a browser runs it (ADR 0029's WebChannel): bundled for the browser with esbuild,
// served from an origin of its own, in Debian's Chromium. Its Listen and Write streams are WebChannel
// sessions over Chromium's own fetch and XHR, across origins (CORS), signed in with the
// user's ID token: a doc and a query listened to, a colleague's write seen, the page's own write, a
// denied listen and a denied write, in streaming, long-polling and XHR (no fetch streams) modes.
const PROJECT = 'demo-webchannel-chromium'
const DATABASE = `projects/${PROJECT}/databases/(default)`
const RULES = `rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
    match /persons/{personId}/{rest=**} { allow read, write: if request.auth != null && personId == 'p1'; }
  }
}`

// The page's code: the SDK's browser entries, as the web app's bundler resolves them.
const PAGE = `
import { initializeApp } from 'firebase/app'
import { connectAuthEmulator, initializeAuth, inMemoryPersistence, signInWithCustomToken } from 'firebase/auth'
import { collection, connectFirestoreEmulator, doc, initializeFirestore, onSnapshot, query, setDoc, where } from 'firebase/firestore'

window.start = async ({ authPort, firestorePort, token, settings, prefix }) => {
  const app = initializeApp({ projectId: '${PROJECT}', apiKey: 'fake-api-key' })
  const auth = initializeAuth(app, { persistence: inMemoryPersistence })
  connectAuthEmulator(auth, 'http://127.0.0.1:' + authPort, { disableWarnings: true })
  await signInWithCustomToken(auth, token)
  const db = initializeFirestore(app, settings)
  connectFirestoreEmulator(db, '127.0.0.1', firestorePort)
  const seen = (window.seen = { doc: [], query: [], denied: [] })
  onSnapshot(doc(db, 'persons/p1/notes/' + prefix + 'a'), (snapshot) => {
    seen.doc.push(snapshot.exists() ? snapshot.get('text') : null)
  })
  onSnapshot(query(collection(db, 'persons/p1/notes'), where('kind', '==', prefix)), (snapshot) => {
    seen.query.push(snapshot.docs.map((each) => each.get('text')).sort())
  })
  onSnapshot(collection(db, 'persons/p2/notes'), () => {}, (error) => seen.denied.push(error.code))
  window.write = (path, text) =>
    setDoc(doc(db, path), { text, kind: prefix }).then(() => 'ok', (error) => error.code)
}
`

let closeEmulator: (() => Promise<void>) | undefined
let emulator: EmulatorLite
let server: Server
let origin: string
let browser: Browser

beforeAll(async () => {
  ;({ emulator, close: closeEmulator } = await startWithRules('webchannel-chromium', PROJECT, RULES))
  const bundle = await build({
    stdin: { contents: PAGE, resolveDir: import.meta.dirname, loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  })
  const script = bundle.outputFiles[0]?.contents ?? new Uint8Array()
  server = createServer((request, response) => {
    if (request.url === '/app.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(script)
      return
    }
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><title>WebChannel</title><script type="module" src="/app.js"></script>')
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const address = server.address()
  // Another port than the emulator's: another origin, so every call is a cross-origin one.
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  // Without the window's own web UI, as the e2e suite: each mode's context would start it beside the page.
  browser = await launchChromium([
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
  ])
}, 60_000)

afterAll(async () => {
  await browser?.close()
  server?.close()
  await closeEmulator?.()
})

/** A write by a colleague (another client): a REST commit with the colleague's ID token. */
async function colleagueWrites(path: string, text: string, kind: string): Promise<void> {
  const token = await idTokenFor(emulator.authPort, emulator.serviceAccount, 'colleague')
  const response = await fetch(`http://127.0.0.1:${emulator.firestorePort}/v1/${DATABASE}/documents:commit`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      writes: [
        {
          update: {
            name: `${DATABASE}/documents/${path}`,
            fields: { text: { stringValue: text }, kind: { stringValue: kind } },
          },
        },
      ],
    }),
  })
  expect(response.status).toBe(200)
}

async function stored(path: string): Promise<unknown> {
  const response = await fetch(`http://127.0.0.1:${emulator.adminPort}/v1/${DATABASE}/documents/${path}`, {
    headers: { authorization: 'Bearer owner' },
  })
  return response.status === 200 ? ((await response.json()) as { fields: unknown }).fields : response.status
}

type Seen = { doc: (string | null)[]; query: string[][]; denied: string[] }
const seen = (page: Page) => page.evaluate(() => (globalThis as unknown as { seen?: Seen }).seen)

describe('the full web SDK in Chromium, from another origin, over WebChannel', () => {
  for (const [mode, settings, prefix] of [
    ['streaming', {}, 's'],
    ['long polling', { experimentalForceLongPolling: true }, 'l'],
    ['XHR, no fetch streams', { useFetchStreams: false }, 'x'],
  ] as const)
    test(`${mode}: listens, sees a colleague's write, writes, and is refused what the rules deny`, async () => {
      await colleagueWrites(`persons/p1/notes/${prefix}a`, 'morgen', prefix)
      const context = await browser.newContext()
      const page = await context.newPage()
      const channels: string[] = []
      const elsewhere: string[] = []
      page.on('request', (request) => {
        const url = new URL(request.url())
        if (url.pathname.endsWith('/channel')) channels.push(`${request.method()} ${url.pathname}${url.search}`)
        if (url.origin !== origin && !url.port.match(new RegExp(`^(${emulator.firestorePort}|${emulator.authPort})$`)))
          elsewhere.push(request.url())
      })
      const failures: string[] = []
      page.on('pageerror', (error) => failures.push(error.message))
      try {
        await page.goto(origin)
        await page.waitForFunction(() => typeof (globalThis as unknown as { start?: unknown }).start === 'function')
        const token = signCustomToken(emulator.serviceAccount, 'emp', { userRole: 'user' })
        await page.evaluate(
          (options) => (globalThis as unknown as { start: (o: typeof options) => Promise<void> }).start(options),
          { authPort: emulator.authPort, firestorePort: emulator.firestorePort, token, settings, prefix },
        )
        await expect.poll(async () => (await seen(page))?.doc, { timeout: 20_000 }).toEqual(['morgen'])
        await expect.poll(async () => (await seen(page))?.query.at(-1), { timeout: 20_000 }).toEqual(['morgen'])
        await expect.poll(async () => (await seen(page))?.denied, { timeout: 20_000 }).toEqual(['permission-denied'])

        // A colleague's write reaches both listeners without a reload.
        await colleagueWrites(`persons/p1/notes/${prefix}a`, 'middag', prefix)
        await expect.poll(async () => (await seen(page))?.doc.at(-1), { timeout: 20_000 }).toBe('middag')
        await expect.poll(async () => (await seen(page))?.query.at(-1), { timeout: 20_000 }).toEqual(['middag'])

        // The page's own write is committed and seen by its query; a write the rules deny is refused.
        const write = (path: string, text: string) =>
          page.evaluate(
            ([path, text]) =>
              (globalThis as unknown as { write: (p: string, t: string) => Promise<string> }).write(path, text),
            [path, text] as const,
          )
        expect(await write(`persons/p1/notes/${prefix}b`, 'aften')).toBe('ok')
        expect(await stored(`persons/p1/notes/${prefix}b`)).toEqual({
          text: { stringValue: 'aften' },
          kind: { stringValue: prefix },
        })
        await expect
          .poll(async () => (await seen(page))?.query.at(-1), { timeout: 20_000 })
          .toEqual(['aften', 'middag'])
        expect(await write(`persons/p2/notes/${prefix}b`, 'nej')).toBe('permission-denied')
        expect(await stored(`persons/p2/notes/${prefix}b`)).toBe(404)

        // It was WebChannel both ways, in the mode asked for, and nothing but the page and the emulator was asked.
        expect(channels.some((line) => line.includes('/Listen/channel'))).toBe(true)
        expect(channels.some((line) => line.includes('/Write/channel'))).toBe(true)
        // The back channel: held open (CI=0) when streaming, a long poll after each answer (CI=1) when forced.
        const backChannel = mode === 'long polling' ? /[?&]CI=1(&|$)/ : /[?&]CI=0(&|$)/
        expect(channels.some((line) => backChannel.test(line))).toBe(true)
        expect(elsewhere).toEqual([])
        expect(failures).toEqual([])
      } finally {
        await context.close()
      }
    }, 90_000)
})
