import { da } from '@bosted/domain/messages/da'
import { useMemo, useState } from 'react'
import { SkippedNotice } from '../../../components/ui/skipped-notice.tsx'
import { formatShortDay } from '../../../lib/days.ts'
import type { StatisticsData } from '../api/get-statistics.ts'
import {
  countedRegistrations,
  keyFigures,
  type Period,
  personRows,
  previousPeriod,
  type StatPerson,
} from '../compute.ts'
import { CoverageChart, DistributionChart, ValuesCharts } from './charts.tsx'
import { KeyFigures } from './key-figures.tsx'
import { PersonTable } from './person-table.tsx'

/** At most this many persons are compared in the value chart (small multiples). */
const MAX_COMPARED = 6

type Props = {
  location: { id: string; name: string }
  period: Period
  /** The location's persons, sorted by name. */
  persons: readonly StatPerson[]
  /** The chosen persons' ids; none chosen: all. */
  selected: readonly string[]
  data: StatisticsData
}

/** Everything the report shows, computed from its inputs (once per answer: see StatisticsReport). */
function reportOf(period: Period, persons: readonly StatPerson[], selected: readonly string[], data: StatisticsData) {
  const previous = previousPeriod(period)
  const { registrations, notes } = data
  const statPersons = selected.length > 0 ? persons.filter((person) => selected.includes(person.id)) : persons
  const ids = new Set(statPersons.map((person) => person.id))
  const active = statPersons.filter((person) => !person.disabled)
  // One set of registrations for every figure and chart of the period (the active persons'), so the
  // total and the distribution's "x af y" are the same number.
  const current = countedRegistrations(period, active, registrations)
  const before = countedRegistrations(previous, active, registrations)
  const currentNotes = notes.filter((note) => ids.has(note.personId))
  return {
    active,
    compared: active.slice(0, MAX_COMPARED),
    current,
    figures: keyFigures(period, { persons: active, registrations: current, notes: currentNotes.length }),
    // The previous period's diary count is the location's: without a selection it is comparable.
    previousFigures: keyFigures(previous, {
      persons: active,
      registrations: before,
      notes: selected.length > 0 ? null : data.previousNoteCount,
    }),
    rows: personRows(period, active, current, before, currentNotes),
    names: new Map(statPersons.map((person) => [person.id, person.name])),
  }
}

/** Statistik's report of a period: key figures, charts, the per-person table, CSV and print. */
export function StatisticsReport({ location, period, persons, selected, data }: Props) {
  const [exportFailed, setExportFailed] = useState(false)
  // Inputs that keep their identity (the route memoizes them) give the charts the same data, which
  // they then draw once, not again on every render.
  const { active, compared, current, figures, previousFigures, rows, names } = useMemo(
    () => reportOf(period, persons, selected, data),
    [period, persons, selected, data],
  )

  // The CSV files: their code, and the registrations' records as stored (comments, authors, times),
  // which the figures never need, load when one is asked for.
  const exportCsv = async (which: 'registrations' | 'persons') => {
    setExportFailed(false)
    try {
      const csv = await import('../csv-exports.ts')
      if (which === 'persons') csv.downloadCsv('borgere', location.name, period, csv.personsCsv(rows))
      else
        csv.downloadCsv('registreringer', location.name, period, await csv.registrationsCsv(location.id, period, names))
    } catch (error) {
      console.warn('statistics: the CSV could not be made', error)
      setExportFailed(true)
    }
  }

  return (
    <>
      <SkippedNotice kind="registrations" count={data.skipped.registrations} />
      <SkippedNotice kind="notes" count={data.skipped.notes} />
      <div className="statistics__actions no-print">
        <button type="button" className="button button--secondary" onClick={() => void exportCsv('registrations')}>
          {da.statistics.exportRegistrations}
        </button>
        <button type="button" className="button button--secondary" onClick={() => void exportCsv('persons')}>
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
          <ValuesCharts period={period} persons={compared} registrations={current} />
        </>
      )}
      <PersonTable rows={rows} />
    </>
  )
}
