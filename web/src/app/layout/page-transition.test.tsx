import '../../test/setup.ts'
import { act, render, screen } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router-dom'
import { afterEach, expect, test, vi } from 'vitest'
import { PageTransition, TRANSITION_MS } from './page-transition.tsx'

function setReducedMotion(matches: boolean) {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) => ({ matches: matches && query.includes('reduce'), media: query }) as MediaQueryList,
  )
}

function setup() {
  const router = createMemoryRouter(
    [
      {
        element: <PageTransition />,
        children: [
          { path: '/a', element: <h1>Side A</h1> },
          { path: '/b', element: <h1>Side B</h1> },
        ],
      },
    ],
    { initialEntries: ['/a'] },
  )
  render(<RouterProvider router={router} />)
  return router
}

afterEach(() => {
  vi.restoreAllMocks()
  vi.useRealTimers()
})

test("'fade-slide' out-in: the old page leaves first, then the new page enters", async () => {
  setReducedMotion(false)
  vi.useFakeTimers()
  const router = setup()
  await act(() => router.navigate('/b'))
  const wrapper = screen.getByTestId('page-transition')
  expect(wrapper).toHaveClass('fade-slide--leave')
  expect(screen.getByRole('heading', { name: 'Side A' })).toBeInTheDocument()
  await act(() => vi.advanceTimersByTimeAsync(TRANSITION_MS))
  expect(wrapper).toHaveClass('fade-slide--enter')
  expect(screen.getByRole('heading', { name: 'Side B' })).toBeInTheDocument()
  expect(screen.queryByRole('heading', { name: 'Side A' })).toBeNull()
  await act(() => vi.advanceTimersByTimeAsync(TRANSITION_MS))
  expect(wrapper).toHaveClass('fade-slide--idle')
})

test('with prefers-reduced-motion the page is swapped at once', async () => {
  setReducedMotion(true)
  const router = setup()
  await act(() => router.navigate('/b'))
  expect(screen.getByTestId('page-transition')).toHaveClass('fade-slide--idle')
  expect(screen.getByRole('heading', { name: 'Side B' })).toBeInTheDocument()
})
