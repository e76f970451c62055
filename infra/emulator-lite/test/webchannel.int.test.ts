import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { deleteApp } from 'firebase/app'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { EmulatorLite } from '../src/index.ts'
import { signUnsigned } from './forged-token.ts'
import { idTokenFor, signedInApp, startWithRules } from './signed-in.ts'

// Firestore's WebChannel transport (ADR 0029): what the full web SDK speaks in a browser. Under Node
// the `firebase/firestore` entry is the gRPC build, so these tests load the SDK's browser build (the
// same file a bundler gives the web app): it opens its streams as WebChannel sessions over fetch.
const PROJECT = 'demo-webchannel'
const RULES = `rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
    match /persons/{personId}/{rest=**} { allow read, write: if request.auth != null && personId == 'p1'; }
  }
}`
const DATABASE = `projects/${PROJECT}/databases/(default)`
const OWNER = { authorization: 'Bearer owner' }
const CHANNEL = '/google.firestore.v1.Firestore/Listen/channel'

type Sdk = typeof import('firebase/firestore')
let sdk: Sdk
let closeEmulator: (() => Promise<void>) | undefined
let emulator: EmulatorLite

beforeAll(async () => {
  const pkg = createRequire(import.meta.url).resolve('@firebase/firestore/package.json')
  sdk = (await import(pathToFileURL(join(dirname(pkg), 'dist/index.esm.js')).href)) as Sdk
  ;({ emulator, close: closeEmulator } = await startWithRules('webchannel', PROJECT, RULES))
})

afterAll(async () => {
  await closeEmulator?.()
})

async function idToken(uid: string): Promise<string> {
  return idTokenFor(emulator.authPort, emulator.serviceAccount, uid)
}

/** A write by another client: REST commit with that client's own ID token. */
async function restSet(token: string, path: string, text: string): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${emulator.firestorePort}/v1/${DATABASE}/documents:commit`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      writes: [{ update: { name: `${DATABASE}/documents/${path}`, fields: { text: { stringValue: text } } } }],
    }),
  })
  expect(response.status).toBe(200)
}

type LogEntry = {
  labels: Record<string, string>
  protoPayload: { methodName: string; authenticationInfo?: { principalSubject?: string } }
}
async function accessLog(personId: string): Promise<LogEntry[]> {
  const response = await fetch(
    `http://127.0.0.1:${emulator.adminPort}/emulator/v1/projects/${PROJECT}/accessLog?personId=${personId}`,
    { headers: OWNER },
  )
  expect(response.status).toBe(200)
  return ((await response.json()) as { entries: LogEntry[] }).entries
}

/** Chunks `<length>\n<text>` of a WebChannel response body, the length in UTF-16 code units. */
function chunks(body: string): unknown[] {
  const out: unknown[] = []
  let at = 0
  while (at < body.length) {
    const newline = body.indexOf('\n', at)
    const length = Number(body.slice(at, newline))
    out.push(JSON.parse(body.slice(newline + 1, newline + 1 + length)))
    at = newline + 1 + length
  }
  return out
}

/** A session created by hand as the SDK creates it: init headers and the first message in the form. */
async function handshake(authorization: string | null, first: Record<string, unknown>): Promise<string> {
  const headers = `X-Goog-Api-Client:gl-js/ fire/12\r\nContent-Type:text/plain\r\n${authorization ? `Authorization:${authorization}\r\n` : ''}`
  const form = new URLSearchParams({ headers, count: '1', ofs: '0', req0___data__: JSON.stringify(first) })
  const response = await fetch(
    `http://127.0.0.1:${emulator.firestorePort}${CHANNEL}?VER=8&database=${encodeURIComponent(DATABASE)}&RID=1234&CVER=22&X-HTTP-Session-Id=gsessionid&zx=a&t=1`,
    { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() },
  )
  expect(response.status).toBe(200)
  const [[[id, c]]] = chunks(await response.text()) as [[[number, [string, string, string, number, number, number]]]]
  expect(id).toBe(0)
  expect(c[0]).toBe('c')
  expect(c.slice(2, 4)).toEqual(['', 8])
  return c[1]
}

/** Long-polls (`CI=1`) until a message matching `until` has arrived; returns the ListenResponses seen. */
async function poll(sid: string, until: (message: Record<string, unknown>) => boolean) {
  const seen: Record<string, unknown>[] = []
  let aid = 0
  while (!seen.some(until)) {
    const response = await fetch(
      `http://127.0.0.1:${emulator.firestorePort}${CHANNEL}?VER=8&database=${encodeURIComponent(DATABASE)}&RID=rpc&SID=${sid}&AID=${aid}&CI=1&TO=2000&TYPE=xmlhttp&zx=b&t=1`,
    )
    expect(response.status).toBe(200)
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    for (const batch of chunks(await response.text()) as [number, [unknown]][][])
      for (const [id, [message]] of batch) {
        expect(id).toBeGreaterThan(aid)
        aid = id
        if (message !== 'noop') seen.push(message as Record<string, unknown>)
      }
  }
  return { seen, aid }
}

const queryTarget = (person: string, targetId: number) => ({
  database: DATABASE,
  addTarget: {
    targetId,
    query: {
      parent: `${DATABASE}/documents/persons/${person}`,
      structuredQuery: { from: [{ collectionId: 'notes' }] },
    },
  },
})

describe('the WebChannel wire, by hand', () => {
  test('a signed ID token in the init headers reads what the rules allow; a forged or absent one gets the denied target', async () => {
    const token = await idToken('emp')
    await restSet(token, 'persons/p1/notes/n1', 'tirsdag é☃😀')
    const isCurrent = (message: Record<string, unknown>) =>
      (message.targetChange as { targetChangeType?: string } | undefined)?.targetChangeType === 'CURRENT'
    const isRemove = (message: Record<string, unknown>) =>
      (message.targetChange as { targetChangeType?: string } | undefined)?.targetChangeType === 'REMOVE'

    const allowed = await handshake(`Bearer ${token}`, queryTarget('p1', 2))
    const { seen } = await poll(allowed, isCurrent)
    const documents = seen.flatMap((message) =>
      message.documentChange ? [(message.documentChange as { document: { fields: unknown } }).document.fields] : [],
    )
    // Non-ASCII text arrives intact: the chunk lengths count UTF-16 code units.
    expect(documents).toEqual([{ text: { stringValue: 'tirsdag é☃😀' } }])

    const forged = signUnsigned({ sub: 'emp', aud: PROJECT, iss: `https://securetoken.google.com/${PROJECT}` })
    for (const authorization of [`Bearer ${forged}`, null]) {
      const sid = await handshake(authorization, queryTarget('p1', 2))
      const denied = await poll(sid, isRemove)
      expect(denied.seen.some((message) => message.documentChange !== undefined)).toBe(false)
      expect(denied.seen.find(isRemove)).toMatchObject({
        targetChange: { targetChangeType: 'REMOVE', targetIds: [2], cause: { code: 7 } },
      })
    }
  })

  test('a forward POST adds a target, terminate ends the session, and an unknown SID is a 400', async () => {
    const token = await idToken('emp')
    const sid = await handshake(`Bearer ${token}`, queryTarget('p1', 2))
    const first = await poll(sid, (message) => message.documentChange !== undefined)
    const base = `http://127.0.0.1:${emulator.firestorePort}${CHANNEL}?VER=8&database=${encodeURIComponent(DATABASE)}&SID=${sid}`
    const forward = await fetch(`${base}&RID=1235&AID=${first.aid}&zx=c&t=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        count: '1',
        ofs: '1',
        req0___data__: JSON.stringify(queryTarget('p2', 4)),
      }).toString(),
    })
    expect(forward.status).toBe(200)
    const reply = chunks(await forward.text())
    expect(reply).toHaveLength(1)
    expect(reply[0]).toHaveLength(3)
    const second = await poll(
      sid,
      (message) => (message.targetChange as { targetIds?: number[] } | undefined)?.targetIds?.[0] === 4,
    )
    expect(second.seen.length).toBeGreaterThan(0)
    const terminate = await fetch(`${base}&RID=1236&TYPE=terminate&zx=d`, { method: 'POST', body: '' })
    expect(terminate.status).toBe(200)
    const gone = await fetch(`${base}&RID=rpc&AID=0&CI=1&TYPE=xmlhttp&zx=e&t=1`)
    expect(gone.status).toBe(400)
    expect(await gone.text()).toBe('Unknown SID')
  })
})

describe('the full web SDK (browser build) over WebChannel as a signed-in client', () => {
  for (const [name, settings] of [
    ['streaming', {}],
    ['long polling', { experimentalForceLongPolling: true }],
  ] as const)
    test(`${name}: onSnapshot on a doc and a query, a colleague's write appears, a denied query is permission-denied, the Adgangslog has the reads`, async () => {
      const owner = await idToken('colleague')
      const prefix = name === 'streaming' ? 's' : 'l'
      await restSet(owner, `persons/p1/notes/${prefix}a`, 'morgen')
      const app = await signedInApp(emulator.authPort, emulator.serviceAccount, PROJECT, `webchannel-${prefix}`)
      // Every request the SDK makes, to show its Listen stream was a WebChannel (the browser build runs on fetch).
      const channelRequests: string[] = []
      const realFetch = globalThis.fetch
      globalThis.fetch = (input, init) => {
        const url = String(input instanceof Request ? input.url : input)
        if (url.includes(CHANNEL)) channelRequests.push(url)
        return realFetch(input, init)
      }
      const db = sdk.initializeFirestore(app, settings)
      sdk.connectFirestoreEmulator(db, '127.0.0.1', emulator.firestorePort)
      const unsubscribes: (() => void)[] = []
      try {
        const before = (await accessLog('p1')).length
        const docTexts: (string | null)[] = []
        unsubscribes.push(
          sdk.onSnapshot(sdk.doc(db, `persons/p1/notes/${prefix}a`), (snapshot) => {
            docTexts.push(snapshot.exists() ? snapshot.get('text') : null)
          }),
        )
        const queryTexts: string[][] = []
        const fromCache: boolean[] = []
        unsubscribes.push(
          sdk.onSnapshot(
            sdk.query(sdk.collection(db, 'persons/p1/notes'), sdk.where('text', 'in', ['morgen', 'middag'])),
            // A first snapshot may come from the cache the doc target filled; its turn to `fromCache: false`
            // is a metadata change, raised only when asked for.
            { includeMetadataChanges: true },
            (snapshot) => {
              queryTexts.push(snapshot.docs.map((each) => each.get('text')))
              fromCache.push(snapshot.metadata.fromCache)
            },
          ),
        )
        await expect.poll(() => docTexts, { timeout: 10_000 }).toEqual(['morgen'])
        await expect.poll(() => fromCache.at(-1), { timeout: 10_000 }).toBe(false)
        const initial = queryTexts.at(-1)
        expect(initial).toContain('morgen')
        // A colleague writes through REST: both listeners see it without a reload.
        await restSet(owner, `persons/p1/notes/${prefix}a`, 'middag')
        await expect.poll(() => docTexts.at(-1), { timeout: 10_000 }).toBe('middag')
        await expect
          .poll(() => queryTexts.at(-1)?.filter((text) => text === 'middag').length, { timeout: 10_000 })
          .toBeGreaterThan(0)
        const denied = await new Promise<{ code: string }>((resolve) => {
          const unsubscribe = sdk.onSnapshot(
            sdk.collection(db, 'persons/p2/notes'),
            () => {},
            (error) => {
              unsubscribe()
              resolve(error as unknown as { code: string })
            },
          )
        })
        expect(denied.code).toBe('permission-denied')
        const after = await accessLog('p1')
        const listens = after
          .slice(0, after.length - before)
          .filter((entry) => entry.protoPayload.methodName.endsWith('.Listen'))
        // At least the doc's and the query's first snapshots and their re-sends after the write.
        expect(listens.length).toBeGreaterThanOrEqual(4)
        expect(new Set(listens.map((entry) => entry.protoPayload.authenticationInfo?.principalSubject))).toEqual(
          new Set(['emp']),
        )
        expect((await accessLog('p2')).some((entry) => entry.protoPayload.methodName.endsWith('.Listen'))).toBe(false)
        expect(channelRequests.some((url) => url.includes('TYPE=xmlhttp'))).toBe(true)
        if (name === 'long polling') expect(channelRequests.some((url) => url.includes('CI=1'))).toBe(true)
      } finally {
        for (const unsubscribe of unsubscribes) unsubscribe()
        await sdk.terminate(db)
        await deleteApp(app)
        globalThis.fetch = realFetch
      }
    })
})

describe('the full web SDK (browser build) writes over WebChannel', () => {
  test('setDoc and updateDoc are committed under the rules, a denied one is permission-denied, the next goes on', async () => {
    const app = await signedInApp(emulator.authPort, emulator.serviceAccount, PROJECT, 'webchannel-writes')
    const db = sdk.initializeFirestore(app, {})
    sdk.connectFirestoreEmulator(db, '127.0.0.1', emulator.firestorePort)
    const writeChannel: string[] = []
    const realFetch = globalThis.fetch
    globalThis.fetch = (input, init) => {
      const url = String(input instanceof Request ? input.url : input)
      if (url.includes('/google.firestore.v1.Firestore/Write/channel')) writeChannel.push(url)
      return realFetch(input, init)
    }
    try {
      await sdk.setDoc(sdk.doc(db, 'persons/p1/notes/w'), { text: 'skrevet', n: 1 })
      await sdk.updateDoc(sdk.doc(db, 'persons/p1/notes/w'), { n: sdk.increment(2), at: sdk.serverTimestamp() })
      await expect(sdk.setDoc(sdk.doc(db, 'persons/p2/notes/w'), { text: 'nej' })).rejects.toMatchObject({
        code: 'permission-denied',
      })
      await sdk.setDoc(sdk.doc(db, 'persons/p1/notes/w2'), { text: 'igen' })
      // The writes went through the Write channel: its handshakes (a new session after the denied batch).
      expect(writeChannel.filter((url) => url.includes('CVER=22')).length).toBeGreaterThanOrEqual(2)
      const stored = await fetch(`http://127.0.0.1:${emulator.adminPort}/v1/${DATABASE}/documents:batchGet`, {
        method: 'POST',
        headers: { ...OWNER, 'content-type': 'application/json' },
        body: JSON.stringify({
          documents: ['w', 'w2']
            .map((id) => `${DATABASE}/documents/persons/p1/notes/${id}`)
            .concat(`${DATABASE}/documents/persons/p2/notes/w`),
        }),
      })
      const found = ((await stored.json()) as { found?: { fields: Record<string, unknown> }; missing?: string }[]).map(
        (each) => each.found?.fields ?? null,
      )
      expect(found[0]).toMatchObject({
        text: { stringValue: 'skrevet' },
        n: { integerValue: '3' },
        at: { timestampValue: expect.any(String) },
      })
      expect(found[1]).toEqual({ text: { stringValue: 'igen' } })
      expect(found[2]).toBeNull()
      const writes = (await accessLog('p1')).filter((entry) => entry.protoPayload.methodName.endsWith('.Write'))
      expect(writes.some((entry) => entry.protoPayload.authenticationInfo?.principalSubject === 'emp')).toBe(true)
    } finally {
      globalThis.fetch = realFetch
      await sdk.terminate(db)
      await deleteApp(app)
    }
  })
})
