import '../../../test/setup.ts'
import type { AccessLogEntry, AccessLogPage } from '@bosted/domain/access-log'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router-dom'
import { beforeEach, expect, test, vi } from 'vitest'
import { ApiError } from '../../../lib/api-client.ts'
import { getAccessLog } from '../api/get-access-log.ts'
import { verifyAccessLog } from '../api/verify-access-log.ts'
import { AccessLogPanel } from './access-log-panel.tsx'

vi.mock('../api/get-access-log.ts', () => ({ getAccessLog: vi.fn() }))
vi.mock('../api/verify-access-log.ts', () => ({ verifyAccessLog: vi.fn() }))

const SIGNE = { uid: 'demo-medarbejder', email: 'medarbejder@demo.dk', name: 'Signe Dahl', role: 'employee' } as const
const BIRGITTE = { uid: 'demo-admin', email: 'admin@demo.dk', name: 'Birgitte Holm', role: 'admin' } as const

const entry = (seq: number, overrides: Partial<AccessLogEntry> = {}): AccessLogEntry => ({
  seq,
  timestamp: '2026-11-23T07:14:00.000Z',
  personId: 'p1',
  principal: SIGNE,
  operation: 'list',
  resource: 'notes',
  resourceName: 'persons/p1/notes',
  count: 12,
  callerIp: '127.0.0.1',
  ...overrides,
})
const page = (entries: AccessLogEntry[], nextPageToken: string | null = null): AccessLogPage => ({
  entries,
  nextPageToken,
  actors: [SIGNE, BIRGITTE],
})

function showPanel(path = '/log') {
  const router = createMemoryRouter(
    [{ path: '/log', element: <AccessLogPanel personId="p1" personName="Anna Hansen" loading={<p>Henter …</p>} /> }],
    { initialEntries: [path] },
  )
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  )
  return router
}

beforeEach(() => {
  vi.clearAllMocks()
  vi.mocked(getAccessLog).mockReset()
  vi.mocked(verifyAccessLog).mockResolvedValue({ intact: true, entries: 1234, brokenAt: null, pruned: 0 })
})

test('the log reads as Danish sentences with their time, newest first, and says whether its chain is intact', async () => {
  vi.mocked(getAccessLog).mockResolvedValue(
    page([
      entry(2, { principal: BIRGITTE, operation: 'viewLog', resource: 'accessLog', count: 1 }),
      entry(1, { timestamp: '2026-11-22T12:00:00.000Z' }),
    ]),
  )
  showPanel()
  const list = await screen.findByRole('list', { name: 'Poster i adgangsloggen' })
  expect(
    within(list)
      .getAllByRole('listitem')
      .map((item) => item.textContent),
  ).toEqual([
    'Birgitte Holm (administrator) åbnede adgangsloggen · 23.11.2026 08:14',
    'Signe Dahl (medarbejder) læste 12 dagbogsnotater · 22.11.2026 13:00',
  ])
  expect(await screen.findByRole('status')).toHaveTextContent('Loggen er ubrudt (1.234 poster kontrolleret).')
  expect(getAccessLog).toHaveBeenCalledWith(
    'p1',
    expect.objectContaining({ actor: '', operation: '' }),
    expect.objectContaining({ pageToken: null, pageSize: 50 }),
  )
})

test('"Vis flere" appends the next page and moves the focus to its first entry', async () => {
  vi.mocked(getAccessLog).mockImplementation(async (_id, _filter, paging) =>
    paging.pageToken === 'next' ? page([entry(1, { count: 1 })]) : page([entry(3), entry(2)], 'next'),
  )
  showPanel()
  await userEvent.click(await screen.findByRole('button', { name: 'Vis flere' }))
  await vi.waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(3))
  expect(screen.getAllByRole('listitem')[2]).toHaveTextContent('Signe Dahl (medarbejder) læste 1 dagbogsnotat')
  expect(screen.getAllByRole('listitem')[2]).toHaveFocus()
  expect(screen.queryByRole('button', { name: 'Vis flere' })).toBeNull()
})

test('choosing a staff member and an operation puts them in the address and asks the api for them', async () => {
  vi.mocked(getAccessLog).mockResolvedValue(page([entry(1)]))
  const router = showPanel()
  const filters = await screen.findByRole('form', { name: 'Afgrænsning af adgangsloggen' })
  await screen.findByRole('list', { name: 'Poster i adgangsloggen' })
  const staff = within(filters).getByLabelText('Medarbejder')
  expect(
    within(staff)
      .getAllByRole('option')
      .map((option) => option.textContent),
  ).toEqual(['Alle', 'Birgitte Holm (administrator)', 'Signe Dahl (medarbejder)'])
  await userEvent.selectOptions(staff, 'Signe Dahl (medarbejder)')
  await userEvent.selectOptions(within(filters).getByLabelText('Handling'), 'Læst (liste)')
  await userEvent.click(within(filters).getByRole('button', { name: 'Vis' }))
  await vi.waitFor(() => expect(router.state.location.search).toBe('?actor=demo-medarbejder&operation=list'))
  await vi.waitFor(() =>
    expect(getAccessLog).toHaveBeenLastCalledWith(
      'p1',
      expect.objectContaining({ actor: 'demo-medarbejder', operation: 'list' }),
      expect.objectContaining({ pageToken: null }),
    ),
  )
})

test("a refusal shows the api's forbidden message and offers no retry", async () => {
  vi.mocked(getAccessLog).mockRejectedValue(new ApiError(403, 'forbidden', 'Du har ikke adgang til dette.'))
  showPanel()
  expect(await screen.findByRole('alert')).toHaveTextContent('Du har ikke adgang til dette.')
  expect(screen.queryByRole('button', { name: 'Prøv igen' })).toBeNull()
  expect(verifyAccessLog).not.toHaveBeenCalled()
})

test('a failed fetch says so with Prøv igen, which loads the log', async () => {
  vi.mocked(getAccessLog).mockRejectedValueOnce(new ApiError(400, 'invalid-request', 'Ugyldig forespørgsel.'))
  vi.mocked(getAccessLog).mockResolvedValue(page([]))
  showPanel()
  expect(await screen.findByRole('alert')).toHaveTextContent('Adgangsloggen kunne ikke hentes.')
  await userEvent.click(screen.getByRole('button', { name: 'Prøv igen' }))
  expect(await screen.findByText('Ingen adgang i den valgte periode.')).toBeInTheDocument()
  expect(screen.queryByRole('button', { name: 'Hent som CSV' })).toBeNull()
})

test('a broken chain names the first entry that does not match', async () => {
  vi.mocked(getAccessLog).mockResolvedValue(page([entry(1)]))
  vi.mocked(verifyAccessLog).mockResolvedValue({ intact: false, entries: 10, brokenAt: 7, pruned: 0 })
  showPanel()
  await vi.waitFor(() =>
    expect(screen.getByRole('status')).toHaveTextContent(
      'Loggen er brudt ved post 7. Kontakt jeres systemadministrator.',
    ),
  )
})

test('a whole chain that lacks the entries of stored writes says so (ADR 0017)', async () => {
  vi.mocked(getAccessLog).mockResolvedValue(page([entry(1)]))
  vi.mocked(verifyAccessLog).mockResolvedValue({
    intact: true,
    entries: 10,
    brokenAt: null,
    pruned: 0,
    writesChecked: 5,
    writesWithoutEntry: 2,
  })
  showPanel()
  await vi.waitFor(() =>
    expect(screen.getByRole('status')).toHaveTextContent(
      'Loggen mangler poster: 2 gemte ændringer af borgeres data står ikke i loggen. Kontakt jeres systemadministrator.',
    ),
  )
  expect(screen.getByRole('status')).toHaveClass('access-log__chain--broken')
})
