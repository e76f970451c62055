import { useQuery } from '@tanstack/react-query'
import { getStatistics } from './api/get-statistics.ts'
import { statisticsKeys } from './api/keys.ts'
import type { Period } from './compute.ts'

/**
 * The figures' data of a location's period from the api (ADR 0027). Read again on every visit
 * (staleTime 0): a diary entry or a registration written elsewhere shows at once.
 */
export function useStatistics(locationId: string, period: Period) {
  return useQuery({
    queryKey: statisticsKeys.period(locationId, period.from, period.to),
    queryFn: () => getStatistics(locationId, period.from, period.to),
    staleTime: 0,
  })
}
