import '../test/setup.ts'
import { PersonSchema } from '@bosted/domain/person'
import { render, screen } from '@testing-library/react'
import { initializeApp } from 'firebase/app'
import { createMemoryRouter, RouterProvider } from 'react-router-dom'
import { afterEach, beforeAll, beforeEach, expect, test, vi } from 'vitest'
import { clearActiveLocation } from '../features/locations/locations-store.ts'
import { session } from '../features/session/session-store.ts'
import { loadRuntimeConfig, setRuntimeConfig } from '../lib/config.ts'
import { getFirebase } from '../lib/firebase.ts'
import { RouteError } from './layout/route-error.tsx'
import { routes } from './router.tsx'
import { sessionMachine } from './session.ts'

vi.mock('firebase/app', () => ({ initializeApp: vi.fn() }))
vi.mock('../features/session/api/validate-session.ts', () => ({ validateSession: vi.fn(async () => true) }))
vi.mock('../features/session/api/load-session-user.ts', () => ({
  loadSessionUser: vi.fn(async (id: string) => ({
    id,
    firstName: 'Anna',
    lastName: 'Hansen',
    customClaims: { admin: true },
    locations: ['a'],
  })),
}))
// The shell asks the api whether anything can be saved; here the backend is healthy.
vi.mock('../features/backend-status/api/get-backend-health.ts', () => ({ getBackendHealth: vi.fn(async () => 'ok') }))
// Firestore is an edge: replaced at its loader (lib/firestore.ts, as in session.test.ts). The user's
// location 'a' exists; the person routes read the person first (route validation): p1 exists, any
// other id does not.
vi.mock('../lib/firestore.ts', () => ({
  getDb: async () => ({}),
  firestoreLite: async () => ({
    doc: (_db: unknown, ...path: string[]) => path.join('/'),
    getDoc: async (path: string) => {
      const [collection, id = ''] = path.split('/')
      const data =
        path === 'locations/a'
          ? { name: 'Åbo', createdAt: '2026-01-01T00:00:00.000Z' }
          : path === 'persons/p1'
            ? PersonSchema.parse({ id, createdAt: '2026-01-01T00:00:00.000Z', locationId: 'a' })
            : undefined
      return { id, ref: { path }, exists: () => data !== undefined, data: () => data, collection }
    },
  }),
}))

function visit(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] })
  render(<RouterProvider router={router} />)
  return router
}

// The session guard reads the locations through the query cache's module, loaded on demand; loaded
// once here so the first page's 1 s to show its heading is not spent compiling it under a busy CPU.
beforeAll(async () => {
  await import('../features/locations/api/get-locations.ts')
})

beforeEach(() => {
  setRuntimeConfig({
    firebase: null,
    missingKeys: ['apiKey'],
    emulators: { auth: null, firestore: null, storage: null },
  })
  // biome-ignore lint/suspicious/noDocumentCookie: the test plays the api's readable cookie
  document.cookie = 'userId=u1; path=/'
})
afterEach(() => {
  sessionMachine.stop()
  session.user = null
  clearActiveLocation()
  // biome-ignore lint/suspicious/noDocumentCookie: see above
  document.cookie = 'userId=; Max-Age=0; path=/'
})

const PAGES: [string, string, string?][] = [
  ['/daily', 'Dagsoversigt'],
  ['/notes', 'Dagbøger'],
  ['/statistics', 'Statistik', 'Oversigt'],
  ['/statistics/statistics', 'Statistik', 'Oversigt'],
  ['/settings/answers', 'Indstillinger', 'Svarmuligheder'],
  ['/settings/notifications', 'Indstillinger', 'Notifikationer'],
  ['/settings/persons', 'Indstillinger', 'Borgere'],
  ['/settings/users', 'Indstillinger', 'Brugere'],
  ['/person/p1/daily', 'Borger', 'Dagsoversigt for borger'],
  ['/person/p1/notes', 'Borger', 'Dagbøger for borger'],
  ['/person/p1/settings', 'Borger', 'Indstillinger for borger'],
  ['/person/p1/settings/general', 'Borger', 'Generelt'],
  ['/person/p1/settings/answers', 'Borger', 'Svarmuligheder'],
  ['/person/p1/settings/notifications', 'Borger', 'Notifikationer'],
  ['/person/p1/settings/settings', 'Borger', 'Funktioner'],
  ['/create/person/general', 'Opret borger', 'Generelt'],
  ['/create/person/answers', 'Opret borger', 'Svarmuligheder'],
  ['/create/person/settings', 'Opret borger', 'Indstillinger'],
  ['/create/user/general', 'Opret bruger', 'Generelt'],
  ['/admin', 'Administration'],
  ['/admin/location/loc1/subscription', 'Lokation', 'Abonnement'],
  ['/admin/person/p1/settings', 'Borgerindstillinger'],
]

test.each(PAGES)('%s renders its page with the heading %s', async (path, heading, child) => {
  visit(path)
  expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument()
  if (child !== undefined) expect(await screen.findByRole('heading', { name: child })).toBeInTheDocument()
  expect(screen.getByRole('navigation', { name: 'Hovedmenu' })).toBeInTheDocument()
})

test.each([
  ['/', '/daily'],
  ['/settings', '/settings/persons'],
  ['/person/p1', '/person/p1/daily'],
  ['/create/person', '/create/person/general'],
  ['/create/user', '/create/user/general'],
])('%s leads to %s', async (from, to) => {
  const router = visit(from)
  await vi.waitFor(() => expect(router.state.location.pathname).toBe(to))
})

test('the location id may span several path segments, the last naming the tab', async () => {
  visit('/admin/location/region/north/loc1/features')
  expect(await screen.findByRole('heading', { name: 'Funktioner', level: 2 })).toBeInTheDocument()
  expect(screen.getByRole('link', { name: 'Abonnement' })).toHaveAttribute(
    'href',
    '/admin/location/region/north/loc1/subscription',
  )
})

test.each([
  ['/person/bad%20id!/settings/general', 'Page Not Found: /person/bad%20id!/settings/general'],
  ['/admin/location/features', 'Page Not Found: /admin/location/features'],
  ['/admin/person/%3Cx%3E/settings', 'Page Not Found: /admin/person/%3Cx%3E/settings'],
])('a route whose params fail its rule shows the 404 page: %s', async (path, message) => {
  visit(path)
  expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeInTheDocument()
  expect(screen.getByText(message)).toBeInTheDocument()
})

test('a person that does not exist, or that the user may not read, is the 404 page', async () => {
  visit('/person/p2/daily')
  expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeInTheDocument()
  expect(screen.getByText('Page Not Found: /person/p2/daily')).toBeInTheDocument()
})

test('an unknown route shows Page Not Found: {path} inside the shell', async () => {
  visit('/no/such/page')
  expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeInTheDocument()
  expect(screen.getByText('Page Not Found: /no/such/page')).toBeInTheDocument()
  expect(screen.getByRole('navigation', { name: 'Hovedmenu' })).toBeInTheDocument()
})

// A reload begins with the user kept in local storage. /admin decides on the claims this start reads:
// a stored copy without them (its read was cut off by leaving the page) is no 404 for an administrator,
// and a stored admin flag the api no longer gives opens nothing.
test.each([
  [{}, { admin: true }, 'Administration'],
  [{ admin: true }, {}, 'Page Not Found'],
])('/admin with stored claims %j and read claims %j shows %s', async (stored, read, heading) => {
  const { loadSessionUser } = await import('../features/session/api/load-session-user.ts')
  vi.mocked(loadSessionUser).mockImplementationOnce(async (id) => ({
    id,
    firstName: 'Anna',
    lastName: 'Hansen',
    customClaims: read,
    locations: ['a'],
  }))
  session.user = { id: 'u1', firstName: 'Anna', lastName: 'Hansen', customClaims: stored, locations: ['a'] }
  visit('/admin')
  expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument()
  // The claims kept should the api not answer; the page is read ahead once it has (session.test.ts).
  expect(vi.mocked(loadSessionUser)).toHaveBeenCalledWith('u1', stored, expect.any(Function))
})

test.each(['/daily', '/settings/persons', '/person/p1/daily', '/admin', '/no/such/page'])(
  'without the session cookies %s goes to /login',
  async (path) => {
    // biome-ignore lint/suspicious/noDocumentCookie: no session
    document.cookie = 'userId=; Max-Age=0; path=/'
    const router = visit(path)
    expect(await screen.findByRole('heading', { level: 1, name: 'Log ind' })).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/login')
    expect(screen.queryByRole('navigation', { name: 'Hovedmenu' })).toBeNull()
  },
)

test('with an incomplete configuration the missing keys are logged and /login explains it instead of crashing', async () => {
  const error = vi.spyOn(console, 'error').mockImplementation(() => {})
  const config = Response.json({ firebase: { apiKey: 'k', projectId: 'demo-bosted' } })
  await loadRuntimeConfig((async () => config) as unknown as typeof fetch)
  expect(error).toHaveBeenCalledWith('Missing Firebase configuration keys', ['authDomain', 'appId', 'storageBucket'])
  error.mockRestore()

  visit('/login')
  expect(
    await screen.findByText(
      'Appen mangler sin opsætning (Firebase), så du kan ikke logge ind lige nu. Kontakt din administrator.',
    ),
  ).toHaveAttribute('role', 'alert')
  expect(screen.getByRole('button', { name: 'Log ind' })).toBeDisabled()
  expect(screen.getByLabelText('Email')).toBeDisabled()
  expect(getFirebase()).toBeNull()
  expect(initializeApp).not.toHaveBeenCalled()
})

test('any other failure shows the 500 page, never the error itself', async () => {
  const error = vi.spyOn(console, 'error').mockImplementation(() => {})
  const router = createMemoryRouter([
    {
      path: '/',
      errorElement: <RouteError />,
      loader: () => {
        throw new Error('secret stack detail')
      },
      element: null,
    },
  ])
  render(<RouterProvider router={router} />)
  expect(await screen.findByRole('heading', { level: 1, name: 'Internal Server Error' })).toBeInTheDocument()
  expect(screen.queryByText(/secret stack detail/)).toBeNull()
  error.mockRestore()
})
