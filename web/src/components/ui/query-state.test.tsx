import '../../test/setup.ts'
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, expect, test, vi } from 'vitest'
import { type QueryLike, QueryState } from './query-state.tsx'

afterEach(() => {
  vi.restoreAllMocks()
})

function query<T>(state: Partial<QueryLike<T>>): QueryLike<T> {
  return { data: undefined, isError: false, error: null, refetch: vi.fn(), ...state }
}

test('while the data is on its way, it says Indlæser … as a status', () => {
  render(
    <QueryState query={query<string[]>({})} errorMessage="Borgerne kunne ikke hentes.">
      {(names) => <p>{names.join()}</p>}
    </QueryState>,
  )
  expect(screen.getByRole('status')).toHaveTextContent('Indlæser …')
})

test('data never read, with no connection to read it: said so instead of Indlæser …; data kept is shown', () => {
  const { rerender } = render(
    <QueryState query={[query<string>({ data: 'kept' }), query<string>({ fetchStatus: 'paused' })]} errorMessage="x">
      {(a, b) => <p>{a + b}</p>}
    </QueryState>,
  )
  expect(screen.queryByRole('status')).toBeNull()
  expect(
    screen.getByText(
      'Det her er ikke hentet på denne enhed endnu, og der er ingen forbindelse. Det bliver hentet, når forbindelsen er tilbage.',
    ),
  ).toBeVisible()
  rerender(
    <QueryState query={query<string>({ data: 'kept', fetchStatus: 'paused' })} errorMessage="x">
      {(kept) => <p>{kept}</p>}
    </QueryState>,
  )
  expect(screen.getByText('kept')).toBeVisible()
})

test('a failure is an alert with the page message and Prøv igen, which refetches only what failed', async () => {
  const ok = query({ data: ['Anna'] })
  const failed = query<number>({ isError: true, error: new Error('x') })
  render(
    <QueryState query={[ok, failed]} errorMessage="Dagsoversigten kunne ikke hentes.">
      {(names, count) => <p>{`${names.join()} ${count}`}</p>}
    </QueryState>,
  )
  expect(screen.getByRole('alert')).toHaveTextContent('Dagsoversigten kunne ikke hentes.')
  await userEvent.click(screen.getByRole('button', { name: 'Prøv igen' }))
  expect(failed.refetch).toHaveBeenCalledTimes(1)
  expect(ok.refetch).not.toHaveBeenCalled()
})

test('a failure that cannot be retried gets its own message and no button', () => {
  render(
    <QueryState
      query={query({ isError: true, error: { status: 403 } })}
      errorMessage={(error) => ((error as { status: number }).status === 403 ? 'Ingen adgang.' : 'Fejl.')}
      canRetry={() => false}
    >
      {() => null}
    </QueryState>,
  )
  expect(screen.getByRole('alert')).toHaveTextContent('Ingen adgang.')
  expect(screen.queryByRole('button')).toBeNull()
})

test('a failure is logged once with the context when asked to', () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  render(
    <QueryState
      query={query({ isError: true, error: new TypeError('x') })}
      errorMessage="Fejl."
      report="the page failed"
    >
      {() => null}
    </QueryState>,
  )
  expect(warn).toHaveBeenCalledExactlyOnceWith('the page failed', 'TypeError')
})

test('empty data shows the empty notice instead of the page', () => {
  render(
    <QueryState
      query={query<string[]>({ data: [] })}
      errorMessage="Fejl."
      isEmpty={(names) => names.length === 0}
      empty="Der er ingen borgere."
    >
      {() => <p>siden</p>}
    </QueryState>,
  )
  expect(screen.getByText('Der er ingen borgere.')).toHaveClass('notice')
  expect(screen.queryByText('siden')).toBeNull()
})

test('with every query loaded the page gets their data in order, even null (not found)', () => {
  render(
    <QueryState query={[query({ data: 'Anna' }), query<string | null>({ data: null })]} errorMessage="Fejl.">
      {(name, other) => <p>{`${name}/${String(other)}`}</p>}
    </QueryState>,
  )
  expect(screen.getByText('Anna/null')).toBeInTheDocument()
  expect(screen.queryByRole('status')).toBeNull()
})

function Persons({ fetcher }: { fetcher: () => Promise<string[]> }) {
  const persons = useQuery({ queryKey: ['persons'], queryFn: fetcher, retry: false })
  return (
    <QueryState query={persons} errorMessage="Borgerne kunne ikke hentes.">
      {(names) => (
        <ul>
          {names.map((name) => (
            <li key={name}>{name}</li>
          ))}
        </ul>
      )}
    </QueryState>
  )
}

test('with a real query, Prøv igen after a failure loads the page', async () => {
  const fetcher = vi
    .fn<() => Promise<string[]>>()
    .mockRejectedValueOnce(new Error('offline'))
    .mockResolvedValue(['Anna'])
  render(
    <QueryClientProvider client={new QueryClient()}>
      <Persons fetcher={fetcher} />
    </QueryClientProvider>,
  )
  expect(await screen.findByRole('alert')).toHaveTextContent('Borgerne kunne ikke hentes.')
  await userEvent.click(screen.getByRole('button', { name: 'Prøv igen' }))
  expect(await screen.findByRole('listitem')).toHaveTextContent('Anna')
})
