import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import {
  BUILDS_CACHE,
  type Build,
  configuration,
  keepConfiguration,
  keptFile,
  NAVIGATION_TIMEOUT_MS,
  page,
  precache,
  pruneBuilds,
  RUNTIME_CACHE,
  routeOf,
  shellCache,
} from './shell.ts'

/** The browser's caches, in memory: the worker's functions are tested against their contract. */
function memoryCaches() {
  const stores = new Map<string, Map<string, Response>>()
  const key = (request: RequestInfo | URL) =>
    new URL(request instanceof Request ? request.url : String(request), ORIGIN).pathname
  const open = async (name: string) => {
    const store = stores.get(name) ?? new Map<string, Response>()
    stores.set(name, store)
    return {
      match: async (request: RequestInfo | URL) => store.get(key(request))?.clone(),
      put: async (request: RequestInfo | URL, response: Response) => void store.set(key(request), response),
      keys: async () => [...store.keys()].map((path) => new Request(`${ORIGIN}${path}`)),
      delete: async (request: RequestInfo | URL) => store.delete(key(request)),
      addAll: async (requests: RequestInfo[]) => {
        const fetched = await Promise.all(
          requests.map(async (request) => [key(request), await network(request)] as const),
        )
        if (fetched.some(([, response]) => !response.ok)) throw new TypeError('a file could not be kept')
        for (const [path, response] of fetched) store.set(path, response)
      },
    } as unknown as Cache
  }
  const caches = {
    open,
    keys: async () => [...stores.keys()],
    delete: async (name: string) => stores.delete(name),
    match: async (request: RequestInfo | URL, options?: MultiCacheQueryOptions) => {
      if (options?.cacheName !== undefined) return stores.get(options.cacheName)?.get(key(request))?.clone()
      for (const store of stores.values()) {
        const found = store.get(key(request))
        if (found !== undefined) return found.clone()
      }
      return undefined
    },
  } as unknown as CacheStorage
  return { caches, stores }
}

const ORIGIN = 'https://bosted.example'
const served = new Map<string, string>()
const network = vi.fn(async (request: RequestInfo | URL) => {
  const body = served.get(new URL(request instanceof Request ? request.url : String(request), ORIGIN).pathname)
  return body === undefined ? new Response('not found', { status: 404 }) : new Response(body)
})
const offline = vi.fn(async () => {
  throw new TypeError('Failed to fetch')
})

const build = (version: string, files: string[]): Build => ({ version, files })
const V1 = build('20261101T000000000Z-aaaa', ['/index.html', '/assets/app-1.js', '/manifest.webmanifest'])
const V2 = build('20261102T000000000Z-bbbb', ['/index.html', '/assets/app-2.js', '/manifest.webmanifest'])
const get = (path: string, mode: RequestMode = 'cors') => {
  const request = new Request(`${ORIGIN}${path}`)
  Object.defineProperty(request, 'mode', { value: mode })
  return request
}

beforeEach(() => {
  served.clear()
  network.mockClear()
})
afterEach(() => {
  vi.useRealTimers()
})

test("a build's files are kept whole, or not at all", async () => {
  const { caches, stores } = memoryCaches()
  served.set('/index.html', '<html>v1</html>').set('/assets/app-1.js', 'v1').set('/manifest.webmanifest', '{}')
  await precache(caches, V1)
  expect([...(stores.get(shellCache(V1))?.keys() ?? [])].sort()).toEqual(V1.files.slice().sort())
  expect([...(stores.get(BUILDS_CACHE)?.keys() ?? [])]).toEqual([`/${V1.version}`])

  served.delete('/assets/app-2.js')
  await expect(precache(caches, V2)).rejects.toThrow()
  expect(stores.get(shellCache(V2))?.size ?? 0).toBe(0)
  expect([...(stores.get(BUILDS_CACHE)?.keys() ?? [])]).toEqual([`/${V1.version}`])
})

/** A build kept whole: its index.html and its mark. */
async function keptWhole(caches: CacheStorage, build: Build, page = build.version) {
  await (await caches.open(shellCache(build))).put('/index.html', new Response(page))
  await (await caches.open(BUILDS_CACHE)).put(`/${build.version}`, new Response(''))
}

test('only the newest two builds are kept: a page still open on the one before finds its chunks', async () => {
  const { caches, stores } = memoryCaches()
  const V0 = build('20261031T000000000Z-0000', [])
  const cutShort = build('20261101T120000000Z-dddd', [])
  for (const each of [V0, V1, V2]) await keptWhole(caches, each)
  await caches.open(shellCache(cutShort))
  await caches.open(RUNTIME_CACHE)
  await pruneBuilds(caches, V2)
  expect((await caches.keys()).sort()).toEqual([BUILDS_CACHE, RUNTIME_CACHE, shellCache(V1), shellCache(V2)].sort())
  expect([...(stores.get(BUILDS_CACHE)?.keys() ?? [])].sort()).toEqual([`/${V1.version}`, `/${V2.version}`])
})

test('the worker answers page loads, the configuration and kept files of its origin; nothing else', () => {
  expect(routeOf(get('/daily', 'navigate'), ORIGIN, V1)).toBe('page')
  expect(routeOf(get('/person/p1/notes', 'navigate'), ORIGIN, V1)).toBe('page')
  expect(routeOf(get('/config.json'), ORIGIN, V1)).toBe('config')
  expect(routeOf(get('/assets/app-1.js'), ORIGIN, V1)).toBe('file')
  // Another build's chunk: kept if any build kept it.
  expect(routeOf(get('/assets/app-0.js'), ORIGIN, V1)).toBe('file')
  expect(routeOf(get('/manifest.webmanifest'), ORIGIN, V1)).toBe('file')
  // The api, the backends on a pilot's origin, other origins, and writes go to the network untouched.
  expect(routeOf(get('/api/auth/validate'), ORIGIN, V1)).toBeNull()
  expect(routeOf(get('/api/person/p1/export', 'navigate'), ORIGIN, V1)).toBeNull()
  expect(routeOf(get('/google.firestore.v1.Firestore/Listen/channel', 'navigate'), ORIGIN, V1)).toBeNull()
  expect(routeOf(new Request('https://other.example/assets/app-1.js'), ORIGIN, V1)).toBeNull()
  expect(routeOf(new Request(`${ORIGIN}/assets/app-1.js`, { method: 'POST' }), ORIGIN, V1)).toBeNull()
})

test('a kept file comes from a build kept whole; one not kept from the network', async () => {
  const { caches } = memoryCaches()
  await keptWhole(caches, V1)
  await (await caches.open(shellCache(V1))).put('/assets/app-1.js', new Response('kept'))
  // A build still being kept is not asked (the browser would make the read wait for it).
  await (await caches.open(shellCache(V2))).put('/assets/app-9.js', new Response('half kept'))
  served.set('/assets/app-9.js', 'fetched')
  expect(await (await keptFile(caches, get('/assets/app-1.js'), network)).text()).toBe('kept')
  expect(await (await keptFile(caches, get('/assets/app-9.js'), network)).text()).toBe('fetched')
})

test("the kept builds are read once per worker, again after it keeps or prunes one; a pruned build's file is fetched, its cache not made anew", async () => {
  const { caches } = memoryCaches()
  const V0 = build('20261031T000000000Z-0000', ['/index.html', '/assets/app-0.js'])
  await keptWhole(caches, V0)
  await (await caches.open(shellCache(V0))).put('/assets/app-0.js', new Response('v0'))
  served.set('/assets/app-0.js', 'fetched v0')
  expect(await (await keptFile(caches, get('/assets/app-0.js'), network)).text()).toBe('v0')
  const marksRead = vi.spyOn(caches, 'open')
  await keptFile(caches, get('/assets/app-0.js'), network)
  expect(marksRead).not.toHaveBeenCalled()

  served.set('/index.html', 'v1').set('/assets/app-1.js', 'v1').set('/manifest.webmanifest', '{}')
  await precache(caches, V1)
  served.set('/index.html', 'v2').set('/assets/app-2.js', 'v2')
  await precache(caches, V2)
  expect(await (await keptFile(caches, get('/assets/app-2.js'), network)).text()).toBe('v2')
  await pruneBuilds(caches, V2)
  expect(await (await keptFile(caches, get('/assets/app-0.js'), network)).text()).toBe('fetched v0')
  expect(await caches.keys()).not.toContain(shellCache(V0))
})

test('the configuration is read fresh and kept (at install too); without a network, as last kept', async () => {
  const { caches } = memoryCaches()
  served.set('/config.json', '{"a":0}')
  await keepConfiguration(caches, network)
  expect(await (await configuration(caches, get('/config.json'), offline)).text()).toBe('{"a":0}')
  served.set('/config.json', '{"a":1}')
  expect(await (await configuration(caches, get('/config.json'), network)).text()).toBe('{"a":1}')
  expect(await (await configuration(caches, get('/config.json'), offline)).text()).toBe('{"a":1}')
  const { caches: empty } = memoryCaches()
  await expect(configuration(empty, get('/config.json'), offline)).rejects.toThrow('Failed to fetch')
})

test("a page load takes the network's index.html; offline, the newest kept build's", async () => {
  const { caches } = memoryCaches()
  await keptWhole(caches, V1, 'v1')
  await keptWhole(caches, V2, 'v2')
  // A newer build still being kept (or cut short): passed over.
  await (await caches.open(shellCache(build('20261103T000000000Z-cccc', [])))).put('/index.html', new Response('v3'))
  served.set('/daily', 'from the network')
  expect(await (await page(caches, get('/daily', 'navigate'), network)).text()).toBe('from the network')
  expect(await (await page(caches, get('/daily', 'navigate'), offline)).text()).toBe('v2')
  const { caches: none } = memoryCaches()
  await expect(page(none, get('/daily', 'navigate'), offline)).rejects.toThrow('Failed to fetch')
})

test('a page load that waits too long for the network opens the kept build', async () => {
  vi.useFakeTimers()
  const { caches } = memoryCaches()
  await keptWhole(caches, V1, 'v1')
  const hanging = vi.fn(() => new Promise<Response>(() => {}))
  const loading = page(caches, get('/daily', 'navigate'), hanging)
  await vi.advanceTimersByTimeAsync(NAVIGATION_TIMEOUT_MS)
  expect(await (await loading).text()).toBe('v1')
})
