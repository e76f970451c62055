import { addDays, isDay, weekStart } from '../../../lib/days.ts'

/** The person page's chart: its last 30 days. */
export const CHART_DAYS = 30

/**
 * What /person/{id}/daily reads first: the week of `?week=` (any day of it; else this week) and the
 * chart's last 30 days up to `now` (a day). Shared with the prefetch that starts those reads early.
 */
export function personDailyRange(requested: string | null, now: string) {
  const monday = weekStart(isDay(requested) ? requested : now)
  return { monday, sunday: addDays(monday, 6), chartFrom: addDays(now, -(CHART_DAYS - 1)) }
}
