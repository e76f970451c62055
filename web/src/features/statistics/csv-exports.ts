import { type CsvCell, fileSlug, toCsv } from '@bosted/domain/csv'
import { da } from '@bosted/domain/messages/da'
import { dayOf, formatTime } from '../../lib/days.ts'
import { getPeriodRegistrations } from './api/get-period-records.ts'
import type { Period, PersonRow } from './compute.ts'
import { TREND_TEXT } from './format.ts'

// Statistik's CSV files, loaded on the first click on one of them (none of this is needed to show the page).

/** Saves a CSV file named after its kind, the location and the period (Danish Excel: csv.ts). */
export function downloadCsv(kind: string, locationName: string, period: Period, rows: CsvCell[][]) {
  const url = URL.createObjectURL(new Blob([toCsv(rows)], { type: 'text/csv;charset=utf-8' }))
  const link = document.createElement('a')
  link.href = url
  link.download = `${kind}-${fileSlug(locationName)}-${period.from}-${period.to}.csv`
  link.click()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}

/** The per-person table's rows as a CSV. */
export function personsCsv(rows: readonly PersonRow[]): CsvCell[][] {
  return [
    [
      da.statistics.csvPerson,
      da.statistics.registrations,
      da.statistics.missingDays,
      da.statistics.averageValue,
      da.statistics.trend,
      da.statistics.lastNote,
    ],
    ...rows.map((row) => [
      row.name,
      row.registrations,
      row.missingDays,
      row.averageValue === null ? null : Math.round(row.averageValue * 100) / 100,
      row.trend === null ? null : TREND_TEXT[row.trend],
      row.lastNote,
    ]),
  ]
}

/**
 * The registrations CSV's rows: every registration of the chosen persons in the period (those who
 * moved out too), the records as stored (comments, authors, times), not a figure. Read when asked
 * for, so these records do not load with the page.
 */
export async function registrationsCsv(
  locationId: string,
  period: Period,
  names: ReadonlyMap<string, string>,
): Promise<CsvCell[][]> {
  const stored = await getPeriodRegistrations(locationId, period.from, period.to)
  return [
    [
      da.statistics.csvDate,
      da.statistics.csvPerson,
      da.statistics.answer,
      da.statistics.value,
      da.statistics.kind,
      da.statistics.csvComment,
      da.statistics.csvBy,
      da.statistics.csvTime,
    ],
    ...stored.items
      .filter((r) => names.has(r.personId))
      .sort((a, b) => a.day.localeCompare(b.day) || a.createdAt.localeCompare(b.createdAt))
      .map((r) => [
        r.day,
        names.get(r.personId) ?? r.personId,
        r.text,
        r.value,
        r.entity === 'person' ? da.statistics.ownOption : da.statistics.locationOption,
        r.comment ?? null,
        r.createdByName ?? null,
        `${dayOf(r.createdAt)} ${formatTime(r.createdAt)}`,
      ]),
  ]
}
