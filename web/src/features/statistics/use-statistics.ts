import { queryOptions, useQuery } from '@tanstack/react-query'
import { getStatistics } from './api/get-statistics.ts'
import { statisticsKeys } from './api/keys.ts'
import type { Period } from './compute.ts'

/**
 * How long the figures' data counts as current: a visit reads it again when it is older (a diary
 * entry or a registration written elsewhere shows on the next visit), but not the read the session
 * guard started for this very visit while the page's code arrived (ADR 0027, "Freshness").
 */
export const STATISTICS_FRESH_MS = 10_000

/** The figures' data of a location's period from the api (ADR 0027). */
export const statisticsQueryOptions = (locationId: string, period: Period) =>
  queryOptions({
    queryKey: statisticsKeys.period(locationId, period.from, period.to),
    queryFn: () => getStatistics(locationId, period.from, period.to),
    staleTime: STATISTICS_FRESH_MS,
  })

export function useStatistics(locationId: string, period: Period) {
  return useQuery(statisticsQueryOptions(locationId, period))
}
