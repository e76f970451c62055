import { useQuery } from '@tanstack/react-query'
import { queryKeys } from '../../lib/query-keys.ts'
import { getLocationPersons } from './api/get-location-persons.ts'

/** The persons of a location (each parsed on its own; one that does not fit is left out). */
export function useLocationPersons(locationId: string) {
  return useQuery({
    queryKey: queryKeys.locationPersons(locationId),
    queryFn: () => getLocationPersons(locationId),
    select: (parsed) => parsed.items,
  })
}
