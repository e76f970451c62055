import '../../../test/setup.ts'
import { act, render, screen } from '@testing-library/react'
import { afterEach, expect, test, vi } from 'vitest'
import { OfflineBanner } from './offline-banner.tsx'

afterEach(() => {
  vi.restoreAllMocks()
})

function goOffline(isOffline: boolean) {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(!isOffline)
  window.dispatchEvent(new Event(isOffline ? 'offline' : 'online'))
}

test('staff are told in Danish while the tablet has no connection, and the notice goes when it is back', () => {
  render(<OfflineBanner />)
  expect(screen.queryByRole('alert')).toBeNull()
  act(() => goOffline(true))
  expect(screen.getByRole('alert').textContent).toBe(
    'Ingen forbindelse til internettet. Det, du ser, bliver ikke opdateret. Registreringer og notater, du gemmer nu, bliver sendt, når forbindelsen er tilbage. Andet kan ikke gemmes før.',
  )
  act(() => goOffline(false))
  expect(screen.queryByRole('alert')).toBeNull()
})
