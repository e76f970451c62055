import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, expect, test, vi } from 'vitest'
import { StorageFullBanner } from './storage-full-banner.tsx'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function renderWithHealth(status: number, body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })),
  )
  const client = new QueryClient()
  return render(
    <QueryClientProvider client={client}>
      <StorageFullBanner />
    </QueryClientProvider>,
  )
}

test('staff are told in Danish that nothing can be saved when the api reports the backend degraded', async () => {
  renderWithHealth(503, { status: 'degraded', reason: 'Firestore refuses writes' })
  expect((await screen.findByRole('alert')).textContent).toBe(
    'Intet kan gemmes lige nu: serveren har ikke mere plads. Det, du skriver, bliver ikke gemt. Sig det til jeres it-ansvarlige.',
  )
})

test('no notice while the backend is healthy, nor when the api is merely unreachable', async () => {
  renderWithHealth(200, { status: 'ok' })
  await new Promise((resolve) => setTimeout(resolve, 50))
  expect(screen.queryByRole('alert')).toBeNull()
  cleanup()
  renderWithHealth(503, { error: { code: 'unavailable', message: 'Cannot reach auth' } })
  await new Promise((resolve) => setTimeout(resolve, 50))
  expect(screen.queryByRole('alert')).toBeNull()
})
