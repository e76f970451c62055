import { formatFixed } from '@bosted/domain/danish-format'
import { da } from '@bosted/domain/messages/da'
import type { Trend } from './compute.ts'

/** A share as whole per cent ('–' for none). */
export const percent = (share: number | null) => (share === null ? '–' : `${Math.round(share * 100)} %`)
/** A value with one decimal ('–' for none). */
export const decimal = (value: number | null) => (value === null ? '–' : formatFixed(value, 1))
export const TREND_TEXT: Record<NonNullable<Trend>, string> = {
  up: da.statistics.trendUp,
  down: da.statistics.trendDown,
  flat: da.statistics.trendFlat,
}
