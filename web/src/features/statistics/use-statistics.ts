import type { Person } from '@bosted/domain/person'
import { useQuery } from '@tanstack/react-query'
import { queryKeys } from '../../lib/query-keys.ts'
import { getLocationPersons } from '../persons/api/get-location-persons.ts'
import { getStatistics, type StatisticsData } from './api/get-statistics.ts'
import type { Period } from './compute.ts'

export type StatisticsState = {
  /** The location's persons, once read (the period filter offers them). */
  persons: readonly Person[] | undefined
  /** The figures' data, once both reads are in. */
  data: StatisticsData | undefined
  /** Whether a read failed (the page then shows no figures, only the notice and "Prøv igen"). */
  failed: boolean
  /** Reads again what failed. */
  retry: () => void
}

/**
 * Statistik's server state for a location and period: its persons (the Firestore SDK, as every page
 * reads them) and the figures' data from the api (ADR 0027). The figures' data is read again on
 * every visit (staleTime 0): a diary entry or a registration written elsewhere shows at once.
 */
export function useStatistics(locationId: string, period: Period): StatisticsState {
  const persons = useQuery({
    queryKey: queryKeys.locationPersons(locationId),
    queryFn: () => getLocationPersons(locationId),
    select: (parsed) => parsed.items,
  })
  const statistics = useQuery({
    queryKey: queryKeys.statistics(locationId, period.from, period.to),
    queryFn: () => getStatistics(locationId, period.from, period.to),
    staleTime: 0,
  })
  const failed = [persons, statistics].filter((query) => query.isError)
  return {
    persons: persons.data,
    data: persons.data === undefined ? undefined : statistics.data,
    failed: failed.length > 0,
    retry: () => {
      for (const query of failed) void query.refetch()
    },
  }
}
