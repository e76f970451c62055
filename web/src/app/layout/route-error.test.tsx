import '../../test/setup.ts'
import { act, render, screen } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router-dom'
import { afterEach, expect, test, vi } from 'vitest'
import { ErrorPage } from './route-error.tsx'

const chunkFailed = new TypeError('Failed to fetch dynamically imported module: /assets/notes-x.js')
const reload = vi.fn()

afterEach(() => {
  vi.restoreAllMocks()
  reload.mockReset()
  sessionStorage.clear()
})

function showErrorPage(error: unknown, { isOnline }: { isOnline: boolean }) {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(isOnline)
  vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload })
  const router = createMemoryRouter([{ path: '/notes', element: <ErrorPage error={error} /> }], {
    initialEntries: ['/notes'],
  })
  render(<RouterProvider router={router} />)
}

test('offline, a page whose code was not fetched says so in Danish, and loads once the tablet is online', async () => {
  const error = vi.spyOn(console, 'error')
  showErrorPage(chunkFailed, { isOnline: false })
  expect(screen.getByRole('heading', { level: 1, name: 'Ingen forbindelse' })).toBeInTheDocument()
  expect(
    screen.getByText(
      'Det her er ikke hentet på denne enhed endnu, og der er ingen forbindelse. Det bliver hentet, når forbindelsen er tilbage.',
    ),
  ).toBeInTheDocument()
  expect(screen.queryByText('Internal Server Error')).toBeNull()
  // Not logged as a failure: nothing is wrong but the connection.
  expect(error).not.toHaveBeenCalled()
  expect(reload).not.toHaveBeenCalled()

  await act(async () => {
    window.dispatchEvent(new Event('online'))
  })
  expect(reload).toHaveBeenCalledTimes(1)
})

test('online, a page whose code failed is not said to be offline', () => {
  vi.spyOn(console, 'error').mockImplementation(() => {})
  // Within the reload guard (a reload just happened), the failure shows the error page.
  vi.spyOn(Date, 'now').mockReturnValue(1_000_000)
  sessionStorage.setItem('chunkReloadAt', String(1_000_000 - 1_000))
  showErrorPage(chunkFailed, { isOnline: true })
  expect(screen.getByRole('heading', { level: 1, name: 'Internal Server Error' })).toBeInTheDocument()
  expect(screen.queryByText('Ingen forbindelse')).toBeNull()
  expect(reload).not.toHaveBeenCalled()
})

test('offline, any other failure is still the error page', () => {
  vi.spyOn(console, 'error').mockImplementation(() => {})
  showErrorPage(new Error('Cannot read properties of undefined'), { isOnline: false })
  expect(screen.getByRole('heading', { level: 1, name: 'Internal Server Error' })).toBeInTheDocument()
  expect(screen.queryByText('Ingen forbindelse')).toBeNull()
})
