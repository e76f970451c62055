import '../test/setup.ts'
import { render, screen } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router-dom'
import { afterEach, beforeAll, expect, test, vi } from 'vitest'
import { session } from '../features/session/session-store.ts'
import { routes } from './router.tsx'
import { sessionMachine } from './session.ts'

vi.mock('../features/session/api/validate-session.ts', () => ({ validateSession: vi.fn(async () => true) }))
vi.mock('../features/session/api/load-session-user.ts', () => ({
  loadSessionUser: vi.fn(async (id: string) => ({
    id,
    firstName: 'A',
    lastName: 'H',
    customClaims: {},
    locations: [],
  })),
}))
vi.mock('../features/backend-status/api/get-backend-health.ts', () => ({ getBackendHealth: vi.fn(async () => 'ok') }))
// The page's chunk is gone (an old build's file after a deploy).
vi.mock('./routes/notes.tsx', () => {
  throw new TypeError('Failed to fetch dynamically imported module: /assets/notes-x.js')
})

// The session guard reads the locations through the query cache's module, loaded on demand; loaded
// once here so the page's 1 s to show its heading is not spent compiling it under a busy CPU.
beforeAll(async () => {
  await import('../features/locations/api/get-locations.ts')
})

afterEach(() => {
  sessionMachine.stop()
  session.user = null
  // biome-ignore lint/suspicious/noDocumentCookie: see below
  document.cookie = 'userId=; Max-Age=0; path=/'
})

test('a page whose code fails to load again within 10 s shows the 500 page inside the shell', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => {})
  sessionStorage.setItem('chunkReloadAt', String(Date.now()))
  // biome-ignore lint/suspicious/noDocumentCookie: the test plays the api's readable cookie
  document.cookie = 'userId=u1; path=/'
  render(<RouterProvider router={createMemoryRouter(routes, { initialEntries: ['/notes'] })} />)
  expect(await screen.findByRole('heading', { level: 1, name: 'Internal Server Error' })).toBeInTheDocument()
  expect(screen.getByRole('navigation', { name: 'Hovedmenu' })).toBeInTheDocument()
})
