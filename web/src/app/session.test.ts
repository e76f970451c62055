import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { clearActiveLocation } from '../features/locations/locations-store.ts'
import { type SessionUser, session } from '../features/session/session-store.ts'
import { identifiedImages } from '../lib/avatars/image-cache.ts'
import { queryClient } from '../lib/query-client.ts'
import { primeSignedInUser, requireSession, sessionMachine, setLoginNavigator, stopSessionOnLeave } from './session.ts'

// Only the edges are fake: the network (fetch) and Firestore. The session machine, the stores, the
// api client and the user loading are the app's own code. Firestore is replaced at its loader
// (lib/firestore.ts) rather than as 'firebase/firestore/lite': vitest 4 hands the real SDK to the
// second of two overlapping import()s of a factory-mocked module (vitest-dev/vitest#7040).
// A location's read answers when `locationRead` has settled, the user's profile when `profileRead`
// has; the queries pages make are recorded.
let locationRead: Promise<void> = Promise.resolve()
let profileRead: Promise<void> = Promise.resolve()
const queries: string[] = []
vi.mock('../lib/firestore.ts', () => ({
  getDb: async () => ({}),
  firestoreLite: async () => ({
    doc: (_db: unknown, ...path: string[]) => path.join('/'),
    getDoc: async (path: string) => {
      if (path.startsWith('locations/')) await locationRead
      if (path.startsWith('users/')) await profileRead
      return {
        exists: () => path === 'users/u1',
        data: () => (path === 'users/u1' ? { firstName: 'Anna', lastName: 'Hansen', locations: ['a'] } : undefined),
      }
    },
    collection: (_db: unknown, ...path: string[]) => path.join('/'),
    collectionGroup: (_db: unknown, id: string) => `**/${id}`,
    where: (field: string, op: string, value: string) => `${field} ${op} ${value}`,
    orderBy: (field: string, direction: string) => `order ${field} ${direction}`,
    documentId: () => '__name__',
    limit: (count: number) => `limit ${count}`,
    query: (source: string, ...constraints: string[]) => [source, ...constraints].join(' | '),
    getDocs: async (query: string) => {
      queries.push(query)
      return { docs: [] }
    },
  }),
}))

// Firebase Auth is an edge too: the browser here holds its signed-in user (ensure-auth-user.ts is
// proven by the e2e spec session-devices.spec.ts).
vi.mock('../features/session/api/ensure-auth-user.ts', () => ({ ensureAuthUser: async () => {} }))

const MINUTE = 60 * 1000
const remembered: SessionUser = {
  id: 'u1',
  firstName: 'Gammel',
  lastName: 'Navn',
  customClaims: { admin: true },
  locations: ['a'],
}

/** The api as the browser sees it; `getUserById` is what each test may change. */
let getUserById: () => Response
const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
  const url = String(input)
  if (url.startsWith('/api/user/getUserById?')) return getUserById()
  if (url === '/api/auth/validate') return Response.json({ isValid: true })
  if (url === '/api/auth/refresh') return Response.json({})
  return Response.json({ error: { code: 'not_found' } }, { status: 404 })
})
const requests = (path: string) => fetchMock.mock.calls.filter(([input]) => String(input).startsWith(path)).length

let navigateToLogin = vi.fn()
/** The page the listeners are installed on (a fresh one per test, so listeners do not pile up). */
let page: Window

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-03-02T08:00:00Z') })
  locationRead = Promise.resolve()
  profileRead = Promise.resolve()
  queries.length = 0
  vi.stubGlobal('fetch', fetchMock)
  fetchMock.mockClear()
  getUserById = () => Response.json({ data: { customClaims: { admin: true } } })
  navigateToLogin = vi.fn()
  setLoginNavigator(navigateToLogin)
  page = new EventTarget() as Window
  // biome-ignore lint/suspicious/noDocumentCookie: the test plays the api's readable cookie
  document.cookie = 'userId=u1; path=/'
})
afterEach(async () => {
  sessionMachine.stop()
  session.user = null
  clearActiveLocation()
  // Let the store's subscription see the cleared user before the next test installs its navigator.
  await vi.advanceTimersByTimeAsync(0)
  // biome-ignore lint/suspicious/noDocumentCookie: see above
  document.cookie = 'userId=; Max-Age=0; path=/'
  localStorage.clear()
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

/** App start with a remembered user: the user is refreshed by id and the 30-minute check runs. */
async function startWithRememberedUser() {
  session.user = { ...remembered }
  expect(await sessionMachine.start()).toBe('authenticated')
  expect(sessionMachine.isChecking()).toBe(true)
}

const pageshow = (persisted: boolean) => Object.assign(new Event('pageshow'), { persisted })

test('leaving the app (pagehide) stops the 30-minute session check', async () => {
  stopSessionOnLeave(page)
  await startWithRememberedUser()
  await vi.advanceTimersByTimeAsync(30 * MINUTE)
  expect(requests('/api/auth/validate')).toBe(1)

  page.dispatchEvent(new Event('pagehide'))
  expect(sessionMachine.isChecking()).toBe(false)
  await vi.advanceTimersByTimeAsync(120 * MINUTE)
  expect(requests('/api/auth/validate')).toBe(1)
  expect(session.user?.id).toBe('u1')
})

test('coming back from the back/forward cache refreshes the user and restarts the check', async () => {
  stopSessionOnLeave(page)
  await startWithRememberedUser()
  page.dispatchEvent(new Event('pagehide'))
  expect(requests('/api/user/getUserById?id=u1')).toBe(1)

  page.dispatchEvent(pageshow(true))
  await vi.waitFor(() => expect(sessionMachine.isChecking()).toBe(true))
  expect(requests('/api/user/getUserById?id=u1')).toBe(2)
  await vi.advanceTimersByTimeAsync(30 * MINUTE)
  expect(requests('/api/auth/validate')).toBe(1)
})

test('a first page load, or a return without a user, starts no check', async () => {
  stopSessionOnLeave(page)
  await startWithRememberedUser()
  page.dispatchEvent(new Event('pagehide'))

  page.dispatchEvent(pageshow(false))
  await vi.advanceTimersByTimeAsync(0)
  expect(sessionMachine.isChecking()).toBe(false)

  session.user = null
  page.dispatchEvent(pageshow(true))
  await vi.advanceTimersByTimeAsync(30 * MINUTE)
  expect(sessionMachine.isChecking()).toBe(false)
  expect(requests('/api/auth/validate')).toBe(0)
})

test('when the active user becomes empty the app goes to /login and the check stops', async () => {
  await startWithRememberedUser()
  expect(navigateToLogin).not.toHaveBeenCalled()

  session.user = null
  await vi.advanceTimersByTimeAsync(0)
  expect(navigateToLogin).toHaveBeenCalledTimes(1)
  expect(sessionMachine.isChecking()).toBe(false)
})

test('a change to another user is no reason to go to /login', async () => {
  session.user = { ...remembered }
  await vi.advanceTimersByTimeAsync(0)
  session.user = { ...remembered, id: 'u2' }
  await vi.advanceTimersByTimeAsync(0)
  expect(navigateToLogin).not.toHaveBeenCalled()
})

test('pictures downloaded as one user are forgotten when they sign out or another user signs in, not when they are refreshed', async () => {
  session.user = { ...remembered }
  await vi.advanceTimersByTimeAsync(0)
  const clear = vi.spyOn(identifiedImages, 'clear')
  session.user = { ...remembered, firstName: 'Ny' }
  await vi.advanceTimersByTimeAsync(0)
  expect(clear).not.toHaveBeenCalled()
  session.user = { ...remembered, id: 'u2' }
  await vi.advanceTimersByTimeAsync(0)
  expect(clear).toHaveBeenCalledTimes(1)
  session.user = null
  await vi.advanceTimersByTimeAsync(0)
  expect(clear).toHaveBeenCalledTimes(2)
  clear.mockRestore()
})

test('app start: a 401 from /api/user/getUserById clears the remembered user and goes to /login', async () => {
  getUserById = () => Response.json({ error: { code: 'unauthenticated', message: 'no session' } }, { status: 401 })
  session.user = { ...remembered }
  expect(await sessionMachine.start()).toBe('unauthenticated')
  expect(requests('/api/user/getUserById?id=u1')).toBe(1)
  expect(session.user).toBeNull()
  expect(navigateToLogin).toHaveBeenCalled()
  expect(sessionMachine.isChecking()).toBe(false)
})

test('app start: any other getUserById failure only warns; the refreshed user stays signed in with the claims remembered', async () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  getUserById = () => Response.json({ error: { code: 'internal' } }, { status: 500 })
  session.user = { ...remembered }
  expect(await sessionMachine.start()).toBe('authenticated')
  expect(session.user).toEqual({
    id: 'u1',
    kind: 'staff',
    firstName: 'Anna',
    lastName: 'Hansen',
    customClaims: remembered.customClaims,
    locations: ['a'],
    avatarUrl: null,
  })
  expect(warn).toHaveBeenCalledWith('getUserById failed', expect.anything())
  expect(navigateToLogin).not.toHaveBeenCalled()
  warn.mockRestore()
})

test('after a sign-in the landing page takes the user read at once (primeSignedInUser): read once, no second validation', async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  primeSignedInUser('u1')
  expect(await requireSession()).toBeNull()
  expect(session.user).toMatchObject({ id: 'u1', firstName: 'Anna', customClaims: { admin: true } })
  expect(requests('/api/auth/validate')).toBe(0)
  expect(requests('/api/user/getUserById')).toBe(1)
  // Once: a later start (another app start) validates and reads the user again.
  sessionMachine.stop()
  session.user = null
  await vi.advanceTimersByTimeAsync(0)
  await requireSession()
  expect(requests('/api/auth/validate')).toBe(1)
  expect(requests('/api/user/getUserById')).toBe(2)
})

const DAILY_READS = [
  '**/notes | locationId == a | day == 2026-03-01',
  '**/registrations | locationId == a | day == 2026-03-01',
  'persons | locationId == a',
]

/** The session guard of a page at `url`, and whether it has let the page through yet. */
function guardOf(url: string): { guard: Promise<void>; passed: () => boolean } {
  let through = false
  const guard = requireSession({ request: new Request(url) }).then(() => {
    through = true
  })
  return { guard, passed: () => through }
}

test("the guard starts the page's first reads beside the locations' read, not after it (/daily)", async () => {
  let answer = () => {}
  locationRead = new Promise((resolve) => {
    answer = resolve
  })
  // Nothing from an earlier test in the cache: the locations are read now. No user remembered (a first
  // start on this device): nothing is read ahead, these are the guard's own reads.
  queryClient.clear()
  const { guard, passed } = guardOf('http://localhost/daily?day=2026-03-01')
  try {
    await vi.waitFor(() => expect(queries).toHaveLength(3))
    expect(queries.sort()).toEqual(DAILY_READS)
    // The locations have not answered yet: the guard still waits for them.
    expect(passed()).toBe(false)
  } finally {
    answer()
    await guard
  }
  expect(passed()).toBe(true)
})

test("the guard starts Dagbøger's first reads as well (/notes): the persons and the diary list's first page", async () => {
  queryClient.clear()
  await requireSession({ request: new Request('http://localhost/notes?from=2026-02-01&to=2026-02-10') })
  await vi.waitFor(() => expect(queries).toHaveLength(2))
  expect(queries.sort()).toEqual([
    '**/notes | locationId == a | day >= 2026-02-01 | day <= 2026-02-10 | order day desc | order createdAt desc | order __name__ desc | limit 26',
    'persons | locationId == a',
  ])
})

test('the guard reads nothing ahead for a page without such reads', async () => {
  session.user = { ...remembered }
  await requireSession({ request: new Request('http://localhost/settings/persons') })
  await vi.advanceTimersByTimeAsync(50)
  expect(queries).toEqual([])
})

/** Holds the read of the user's profile (users/u1) until the returned function is called. */
function holdProfileRead(): () => void {
  let answer = () => {}
  profileRead = new Promise((resolve) => {
    answer = resolve
  })
  return answer
}

test("a returning start reads the remembered user's page once the api has confirmed the session, beside the profile's read", async () => {
  queryClient.clear()
  const answer = holdProfileRead()
  session.user = { ...remembered }
  const { guard, passed } = guardOf('http://localhost/daily?day=2026-03-01')
  try {
    // The profile has not answered, yet the page's reads are under way (for the remembered location).
    await vi.waitFor(() => expect(queries).toHaveLength(3))
    expect([...queries].sort()).toEqual(DAILY_READS)
    expect(requests('/api/user/getUserById?id=u1')).toBe(1)
    expect(passed()).toBe(false)
  } finally {
    answer()
    await guard
  }
  // The guard, with the profile just read (the same location), found them under way or done.
  await vi.advanceTimersByTimeAsync(0)
  expect([...queries].sort()).toEqual(DAILY_READS)
  expect(session.user).toMatchObject({ firstName: 'Anna' })
})

test('no read ahead without the api: a failed answer waits for the profile, a 401 reads nothing', async () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  queryClient.clear()
  getUserById = () => Response.json({ error: { code: 'internal' } }, { status: 503 })
  let answer = holdProfileRead()
  session.user = { ...remembered }
  const guard = requireSession({ request: new Request('http://localhost/daily?day=2026-03-01') })
  await vi.waitFor(() => expect(requests('/api/user/getUserById?id=u1')).toBe(1))
  await vi.advanceTimersByTimeAsync(10)
  expect(queries).toEqual([])
  answer()
  await guard
  // The guard's own reads, once the profile was read.
  await vi.waitFor(() => expect(queries).toHaveLength(3))

  sessionMachine.stop()
  queries.length = 0
  queryClient.clear()
  getUserById = () => Response.json({ error: { code: 'unauthenticated' } }, { status: 401 })
  answer = holdProfileRead()
  session.user = { ...remembered }
  const refused = requireSession({ request: new Request('http://localhost/daily?day=2026-03-01') }).catch(
    (response: Response) => response.headers.get('location'),
  )
  await vi.waitFor(() => expect(requests('/api/user/getUserById?id=u1')).toBe(2))
  answer()
  expect(await refused).toBe('/login')
  await vi.advanceTimersByTimeAsync(10)
  expect(queries).toEqual([])
  expect(session.user).toBeNull()
  warn.mockRestore()
})

test("no read ahead of a page the guard sends the user away from: the api's claims now ask for a new password", async () => {
  queryClient.clear()
  getUserById = () => Response.json({ data: { customClaims: { mustChangePassword: true } } })
  const answer = holdProfileRead()
  session.user = { ...remembered }
  const guard = requireSession({ request: new Request('http://localhost/daily?day=2026-03-01') }).catch(
    (response: Response) => response.headers.get('location'),
  )
  await vi.waitFor(() => expect(requests('/api/user/getUserById?id=u1')).toBe(1))
  await vi.advanceTimersByTimeAsync(10)
  answer()
  expect(await guard).toBe('/password')
  expect(queries).toEqual([])
})
