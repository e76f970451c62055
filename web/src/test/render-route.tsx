import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import type { ComponentType } from 'react'
import { createMemoryRouter, RouterProvider } from 'react-router-dom'
import { locationsQueryOptions } from '../features/locations/api/get-locations.ts'
import type { LocationSummary } from '../features/locations/locations-store.ts'

/**
 * A route's page at `entry` (matched by `path`), in a query cache without retries that holds the
 * user's locations (of ids `locationIds`) as the session guard leaves them; `locations` null: their
 * read failed, so nothing is cached and the page reads them itself.
 */
export function renderRoute(
  path: string,
  Component: ComponentType,
  entry: string,
  locationIds: string[],
  locations: LocationSummary[] | null,
): void {
  const router = createMemoryRouter([{ path, Component }], { initialEntries: [entry] })
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  if (locations !== null) {
    const { queryKey } = locationsQueryOptions(locationIds)
    client.setQueryData(queryKey, locations)
    client.setQueryDefaults(queryKey, { staleTime: Number.POSITIVE_INFINITY })
  }
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  )
}
