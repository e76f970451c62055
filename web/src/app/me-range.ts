import { addDays } from '../lib/days.ts'

/** "Min dag" shows the person's own last seven days. */
export const LAST_DAYS = 7

/** The first day "Min dag" reads on `day`: shared with the prefetch that starts those reads early. */
export const myDaysFrom = (day: string): string => addDays(day, -(LAST_DAYS - 1))
