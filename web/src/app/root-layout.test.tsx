import '../test/setup.ts'
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query'
import { act, cleanup, render, screen, waitFor } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router-dom'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'

// Whether the toaster is wanted is the module's state: each test starts with fresh modules.
beforeEach(() => {
  vi.resetModules()
})
afterEach(async () => {
  cleanup()
  vi.unstubAllGlobals()
  const { toast } = await import('sonner')
  act(() => {
    toast.dismiss()
  })
})

/** The root layout over a page; `page` is rendered at /daily. */
async function renderAt(path: string, page = <h1>Dagsoversigt</h1>) {
  const { RootLayout } = await import('./root-layout.tsx')
  const router = createMemoryRouter(
    [
      {
        element: <RootLayout />,
        children: [
          { path: '/daily', element: page },
          { path: '/login', element: <h1>Log ind</h1> },
        ],
      },
    ],
    { initialEntries: [path] },
  )
  render(<RouterProvider router={router} />)
  return router
}

/** A signed-in page reading its rows, with the shell's hook (from the test's fresh modules). */
function PageWithData(props: { rows: Promise<string[]>; useToasterOnceQuiet: () => void }) {
  const { rows, useToasterOnceQuiet } = props
  const query = useQuery({ queryKey: ['rows'], queryFn: () => rows })
  useToasterOnceQuiet()
  return <h1>{query.data === undefined ? 'Henter' : 'Dagsoversigt'}</h1>
}

/** sonner's live region (its list of toasts only appears with a toast). */
const toaster = () => screen.queryByRole('region', { name: /^Notifikationer/ })

test('no page loads the toaster by itself; once wanted it comes, and stays on every page after', async () => {
  const router = await renderAt('/login')
  await new Promise((resolve) => setTimeout(resolve, 100))
  expect(toaster()).toBeNull()
  const { wantToaster } = await import('../lib/toast.ts')
  act(() => wantToaster())
  await waitFor(() => expect(toaster()).not.toBeNull())
  expect(toaster()).toHaveAttribute('aria-live', 'polite')
  await act(() => router.navigate('/daily'))
  expect(toaster()).not.toBeNull()
})

test('the signed-in shell wants the toaster once its page has its data and the browser an idle moment (issue 34)', async () => {
  const idle: (() => void)[] = []
  vi.stubGlobal('requestIdleCallback', (task: () => void) => idle.push(task))
  vi.stubGlobal('cancelIdleCallback', () => {})
  const { useToasterOnceQuiet } = await import('../lib/toast.ts')
  let answer: (rows: string[]) => void = () => {}
  const rows = new Promise<string[]>((resolve) => {
    answer = resolve
  })
  const client = new QueryClient()
  await renderAt(
    '/daily',
    <QueryClientProvider client={client}>
      <PageWithData rows={rows} useToasterOnceQuiet={useToasterOnceQuiet} />
    </QueryClientProvider>,
  )
  await new Promise((resolve) => setTimeout(resolve, 100))
  expect(idle).toEqual([])
  expect(toaster()).toBeNull()
  await act(async () => answer(['Anna']))
  expect(await screen.findByRole('heading', { name: 'Dagsoversigt' })).toBeInTheDocument()
  await waitFor(() => expect(idle).toHaveLength(1))
  expect(toaster()).toBeNull()
  act(() => idle[0]?.())
  await waitFor(() => expect(toaster()).not.toBeNull())
})

test('a toast raised before the toaster is there brings it, and is shown in it', async () => {
  await renderAt('/login')
  const { showError } = await import('../lib/toast.ts')
  act(() => showError('Der skete en fejl under log ud.'))
  expect(await screen.findByText('Der skete en fejl under log ud.')).toBeInTheDocument()
  expect(toaster()).not.toBeNull()
})

test("a toast whose code could not be fetched (offline before sonner's code arrived) is shown once online", async () => {
  vi.doMock('sonner', () => {
    throw new TypeError('Failed to fetch dynamically imported module')
  })
  await renderAt('/daily')
  const { showSuccess } = await import('../lib/toast.ts')
  act(() => showSuccess('Registreringen blev gemt'))
  await new Promise((resolve) => setTimeout(resolve, 50))
  expect(screen.queryByText('Registreringen blev gemt')).toBeNull()
  // Online, the browser fetches the failed modules anew (vitest keeps a failed module: forgotten here).
  vi.doUnmock('sonner')
  vi.resetModules()
  act(() => {
    window.dispatchEvent(new Event('online'))
  })
  expect(await screen.findByText('Registreringen blev gemt')).toBeInTheDocument()
})
