import { type CsvCell, fileSlug, toCsv } from '@bosted/domain/csv'
import { da } from '@bosted/domain/messages/da'
import type { Person } from '@bosted/domain/person'
import { useState } from 'react'
import { SkippedNotice } from '../../../components/ui/skipped-notice.tsx'
import { dayOf, formatShortDay, formatTime } from '../../../lib/days.ts'
import { personName, sortByName } from '../../persons/person-name.ts'
import { getPeriodRegistrations } from '../api/get-period-records.ts'
import type { StatisticsData } from '../api/get-statistics.ts'
import {
  countedRegistrations,
  keyFigures,
  type Period,
  personRows,
  previousPeriod,
  type StatPerson,
} from '../compute.ts'
import { TREND_TEXT } from '../format.ts'
import { CoverageChart, DistributionChart, ValuesCharts } from './charts.tsx'
import { KeyFigures } from './key-figures.tsx'
import { PersonTable } from './person-table.tsx'

/** At most this many persons are compared in the value chart (small multiples). */
const MAX_COMPARED = 6

type Props = {
  location: { id: string; name: string }
  period: Period
  persons: readonly Person[]
  /** The chosen persons' ids; none chosen: all. */
  selected: readonly string[]
  data: StatisticsData
}

/** Statistik's report of a period: key figures, charts, the per-person table, CSV and print. */
export function StatisticsReport({ location, period, persons, selected, data }: Props) {
  const [exportFailed, setExportFailed] = useState(false)
  const previous = previousPeriod(period)
  const { registrations, notes } = data
  const all = sortByName(persons)
  const chosen = selected.length > 0 ? all.filter((person) => selected.includes(person.id)) : all
  const statPersons: StatPerson[] = chosen.map((person) => ({
    id: person.id,
    name: personName(person),
    createdAt: person.createdAt,
    disabled: person.settings.disabled,
  }))
  const ids = new Set(statPersons.map((person) => person.id))
  const active = statPersons.filter((person) => !person.disabled)
  // One set of registrations for every figure and chart of the period (the active persons'), so the
  // total and the distribution's "x af y" are the same number.
  const current = countedRegistrations(period, active, registrations)
  const before = countedRegistrations(previous, active, registrations)
  const currentNotes = notes.filter((note) => ids.has(note.personId))
  const figures = keyFigures(period, { persons: active, registrations: current, notes: currentNotes.length })
  // The previous period's diary count is the location's: without a selection it is comparable.
  const previousFigures = keyFigures(previous, {
    persons: active,
    registrations: before,
    notes: selected.length > 0 ? null : data.previousNoteCount,
  })
  const rows = personRows(period, active, current, before, currentNotes)
  const names = new Map(statPersons.map((person) => [person.id, person.name]))

  const download = (name: string, rowsOut: CsvCell[][]) => {
    const url = URL.createObjectURL(new Blob([toCsv(rowsOut)], { type: 'text/csv;charset=utf-8' }))
    const link = document.createElement('a')
    link.href = url
    link.download = `${name}-${fileSlug(location.name)}-${period.from}-${period.to}.csv`
    link.click()
    setTimeout(() => URL.revokeObjectURL(url), 1000)
  }
  // The records as stored (comments, authors, times), which the figures never need: read when asked for.
  const exportRegistrations = async () => {
    setExportFailed(false)
    let stored: Awaited<ReturnType<typeof getPeriodRegistrations>>
    try {
      stored = await getPeriodRegistrations(location.id, period.from, period.to)
    } catch (error) {
      console.warn('statistics: the registrations for the CSV could not be read', error)
      setExportFailed(true)
      return
    }
    download('registreringer', [
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
      // The export holds every registration of the chosen persons in the period (those who moved
      // out too): the records as stored, not a figure.
      ...stored.items
        .filter((r) => ids.has(r.personId))
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
    ])
  }
  const exportPersons = () =>
    download('borgere', [
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
    ])

  return (
    <>
      <SkippedNotice kind="registrations" count={data.skipped.registrations} />
      <SkippedNotice kind="notes" count={data.skipped.notes} />
      <div className="statistics__actions no-print">
        <button type="button" className="button button--secondary" onClick={() => void exportRegistrations()}>
          {da.statistics.exportRegistrations}
        </button>
        <button type="button" className="button button--secondary" onClick={exportPersons}>
          {da.statistics.exportPersons}
        </button>
        <button type="button" className="button button--secondary" onClick={() => window.print()}>
          {da.statistics.print}
        </button>
      </div>
      {exportFailed && (
        <p className="notice notice--error no-print" role="alert">
          {da.statistics.loadFailed}
        </p>
      )}
      <p className="statistics__period">
        {location.name} · {formatShortDay(period.from)} – {formatShortDay(period.to)}
      </p>
      <KeyFigures current={figures} previous={previousFigures} />
      {current.length === 0 ? (
        <p className="notice">{da.statistics.empty}</p>
      ) : (
        <>
          <CoverageChart period={period} persons={active} registrations={current} />
          <DistributionChart registrations={current} />
          <ValuesCharts period={period} persons={active.slice(0, MAX_COMPARED)} registrations={current} />
        </>
      )}
      <PersonTable rows={rows} />
    </>
  )
}

/** The notice of a failed read, with "Prøv igen": never figures of nothing. */
export function StatisticsLoadFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="notice notice--error" role="alert">
      <p>{da.statistics.loadFailed}</p>
      <button type="button" className="button button--secondary" onClick={onRetry}>
        {da.statistics.retry}
      </button>
    </div>
  )
}
