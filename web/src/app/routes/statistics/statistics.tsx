import { type CsvCell, fileSlug, toCsv } from '@bosted/domain/csv'
import { formatFixed } from '@bosted/domain/danish-format'
import { da } from '@bosted/domain/messages/da'
import type { Person } from '@bosted/domain/person'
import { useQuery } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { Link, useSearchParams } from 'react-router-dom'
import uPlot from 'uplot'
import { useSnapshot } from 'valtio'
import { Page } from '../../../components/ui/page.tsx'
import { SkippedNotice } from '../../../components/ui/skipped-notice.tsx'
import { TableScroll } from '../../../components/ui/table-scroll.tsx'
import type { LocationSummary } from '../../../features/locations/locations-store.ts'
import { useActiveLocation } from '../../../features/locations/use-active-location.ts'
import { PeriodFilter } from '../../../features/notes/components/period-filter.tsx'
import { type NotesFilter, notesFilterParams, parseNotesFilter } from '../../../features/notes/notes-filter.ts'
import { getLocationPersons } from '../../../features/persons/api/get-location-persons.ts'
import { personName, sortByName } from '../../../features/persons/person-name.ts'
import { session } from '../../../features/session/session-store.ts'
import {
  countPeriodNotes,
  getPeriodNotes,
  getPeriodRegistrations,
  type StatRegistrationRow,
} from '../../../features/statistics/api/get-period-records.ts'
import { CHART_COLORS, dayToX, UplotChart } from '../../../features/statistics/components/uplot-chart.tsx'
import {
  answerDistribution,
  countedRegistrations,
  coverageByDay,
  coverageSummary,
  dailyValues,
  type KeyFigures,
  keyFigures,
  type Period,
  type PersonRow,
  personRows,
  previousPeriod,
  type StatNote,
  type StatPerson,
  type Trend,
} from '../../../features/statistics/compute.ts'
import { dayOf, formatShortDay, formatTime, today } from '../../../lib/days.ts'
import { queryKeys } from '../../../lib/query-keys.ts'
import { RouteLoading } from '../../layout/route-loading.tsx'

/** At most this many persons are compared in the value chart (small multiples). */
const MAX_COMPARED = 6

const percent = (share: number | null) => (share === null ? '–' : `${Math.round(share * 100)} %`)
const decimal = (value: number | null) => (value === null ? '–' : formatFixed(value, 1))
const TREND_TEXT: Record<NonNullable<Trend>, string> = {
  up: da.statistics.trendUp,
  down: da.statistics.trendDown,
  flat: da.statistics.trendFlat,
}

/** Statistik: the active location over a period (URL), key figures, charts, the per-person table, CSV and print. */
export function Component() {
  const { user } = useSnapshot(session)
  const { query: locations, location } = useActiveLocation(user?.locations ?? [])
  const [params, setParams] = useSearchParams()
  const filter = parseNotesFilter(params, today())
  return (
    <Page title={da.pages.statisticsOverview} level={2}>
      {locations.isPending ? (
        <RouteLoading />
      ) : locations.isError ? (
        <div className="notice notice--error" role="alert">
          <p>{da.statistics.loadFailed}</p>
          <button type="button" className="button button--secondary" onClick={() => void locations.refetch()}>
            {da.statistics.retry}
          </button>
        </div>
      ) : location === null ? (
        <p className="notice">{da.statistics.noLocation}</p>
      ) : (
        <Statistics
          key={location.id}
          location={location as LocationSummary}
          filter={filter}
          onFilter={(next) => setParams(notesFilterParams({ ...next, query: '' }))}
        />
      )}
    </Page>
  )
}

type Props = { location: LocationSummary; filter: NotesFilter; onFilter: (filter: NotesFilter) => void }

function Statistics({ location, filter, onFilter }: Props) {
  const period: Period = { from: filter.from, to: filter.to }
  const previous = previousPeriod(period)
  const persons = useQuery({
    queryKey: queryKeys.locationPersons(location.id),
    queryFn: () => getLocationPersons(location.id),
    select: (parsed) => parsed.items,
  })
  // The period and the one before it in one request; the previous period's diary entries only counted.
  const registrations = useQuery({
    queryKey: queryKeys.periodRegistrations(location.id, previous.from, period.to),
    queryFn: () => getPeriodRegistrations(location.id, previous.from, period.to),
  })
  const notes = useQuery({
    queryKey: queryKeys.periodNotes(location.id, period.from, period.to),
    queryFn: () => getPeriodNotes(location.id, period.from, period.to),
  })
  const previousNotes = useQuery({
    queryKey: queryKeys.periodNoteCount(location.id, previous.from, previous.to),
    queryFn: () => countPeriodNotes(location.id, previous.from, previous.to),
  })
  const queries = [persons, registrations, notes, previousNotes]
  const failed = queries.filter((query) => query.isError)
  if (failed.length > 0)
    return (
      <div className="notice notice--error" role="alert">
        <p>{da.statistics.loadFailed}</p>
        <button
          type="button"
          className="button button--secondary"
          onClick={() => {
            for (const query of failed) void query.refetch()
          }}
        >
          {da.statistics.retry}
        </button>
      </div>
    )
  return (
    <div className="statistics">
      <PeriodFilter
        key={JSON.stringify(filter)}
        persons={sortByName(persons.data ?? []).map((person) => ({ id: person.id, name: personName(person) }))}
        filter={filter}
        onFilter={onFilter}
        label={da.statistics.filters}
        className="no-print"
      />
      {persons.data === undefined ||
      registrations.data === undefined ||
      notes.data === undefined ||
      previousNotes.data === undefined ? (
        <div aria-busy="true">
          <RouteLoading />
        </div>
      ) : (
        <>
          <SkippedNotice kind="registrations" count={registrations.data.skipped} />
          <SkippedNotice kind="notes" count={notes.data.skipped} />
          <Report
            location={location}
            period={period}
            previous={previous}
            persons={persons.data}
            selected={filter.personIds}
            registrations={registrations.data.items}
            notes={notes.data.items}
            previousNoteCount={previousNotes.data}
          />
        </>
      )}
    </div>
  )
}

type ReportProps = {
  location: LocationSummary
  period: Period
  previous: Period
  persons: readonly Person[]
  selected: readonly string[]
  registrations: readonly StatRegistrationRow[]
  notes: readonly StatNote[]
  previousNoteCount: number
}

function Report({
  location,
  period,
  previous,
  persons,
  selected,
  registrations,
  notes,
  previousNoteCount,
}: ReportProps) {
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
    notes: selected.length > 0 ? null : previousNoteCount,
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
  const exportRegistrations = () =>
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
      ...registrations
        .filter((r) => ids.has(r.personId) && r.day >= period.from && r.day <= period.to)
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
      <div className="statistics__actions no-print">
        <button type="button" className="button button--secondary" onClick={exportRegistrations}>
          {da.statistics.exportRegistrations}
        </button>
        <button type="button" className="button button--secondary" onClick={exportPersons}>
          {da.statistics.exportPersons}
        </button>
        <button type="button" className="button button--secondary" onClick={() => window.print()}>
          {da.statistics.print}
        </button>
      </div>
      <p className="statistics__period">
        {location.name} · {formatShortDay(period.from)} – {formatShortDay(period.to)}
      </p>
      <Figures current={figures} previous={previousFigures} />
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

function Figures({ current, previous }: { current: KeyFigures; previous: KeyFigures }) {
  const change = (now: number | null, before: number | null, format: (delta: number) => string) => {
    if (now === null || before === null) return da.statistics.noPrevious
    const delta = now - before
    if (Math.abs(delta) < 1e-9) return da.statistics.noChange
    return da.statistics.change(`${delta > 0 ? '+' : '−'}${format(Math.abs(delta))}`)
  }
  const items: [string, string, string][] = [
    [da.statistics.persons, String(current.persons), change(current.persons, previous.persons, String)],
    [
      da.statistics.registrations,
      String(current.registrations),
      change(current.registrations, previous.registrations, String),
    ],
    [
      da.statistics.coverage,
      percent(current.coverage),
      change(current.coverage, previous.coverage, (delta) => `${Math.round(delta * 100)} %-point`),
    ],
    [
      da.statistics.averageValue,
      decimal(current.averageValue),
      change(current.averageValue, previous.averageValue, (delta) => decimal(delta)),
    ],
    [da.statistics.notes, String(current.notes ?? '–'), change(current.notes, previous.notes, String)],
  ]
  return (
    <section aria-labelledby="statistics-figures">
      <h3 id="statistics-figures">{da.statistics.keyFigures}</h3>
      <dl className="figures">
        {items.map(([label, value, delta]) => (
          <div key={label} className="figures__item">
            <dt>{label}</dt>
            <dd className="figures__value">{value}</dd>
            <dd className="figures__change">{delta}</dd>
          </div>
        ))}
      </dl>
    </section>
  )
}

const axis = (values?: uPlot.Axis['values']): uPlot.Axis => ({
  stroke: CHART_COLORS.text,
  grid: { stroke: CHART_COLORS.grid, width: 1 },
  ticks: { stroke: CHART_COLORS.grid, width: 1 },
  ...(values === undefined ? {} : { values }),
})
const dayAxis = axis((_u, splits) => splits.map((x) => formatShortDay(new Date(x * 1000).toISOString().slice(0, 10))))

function CoverageChart({
  period,
  persons,
  registrations,
}: {
  period: Period
  persons: StatPerson[]
  registrations: StatRegistrationRow[]
}) {
  const days = coverageByDay(period, persons, registrations)
  const data = useMemo<uPlot.AlignedData>(
    () => [
      days.map((d) => dayToX(d.day)),
      days.map((d) => (d.share === null ? null : Math.round(d.share * 1000) / 10)),
    ],
    [days],
  )
  const options = useMemo<Omit<uPlot.Options, 'width' | 'height'>>(
    () => ({
      legend: { show: false },
      scales: { x: { time: false }, y: { range: [0, 100] } },
      axes: [dayAxis, axis((_u, splits) => splits.map((value) => `${value} %`))],
      series: [
        {},
        { label: da.statistics.coverage, stroke: CHART_COLORS.primary, width: 2, points: { show: days.length <= 31 } },
      ],
    }),
    [days.length],
  )
  const { average, lowest } = coverageSummary(days, today())
  return (
    <UplotChart
      title={da.statistics.coverageChart}
      summary={da.statistics.coverageSummary(
        percent(average),
        lowest === null ? null : { share: percent(lowest.share), day: formatShortDay(lowest.day) },
      )}
      options={options}
      data={data}
      table={
        <DataTable
          caption={da.statistics.coverageChart}
          head={[da.statistics.day, da.statistics.registrations, da.statistics.persons, da.statistics.share]}
          rows={days.map((d) => [formatShortDay(d.day), d.registered, d.persons, percent(d.share)])}
        />
      }
    />
  )
}

function DistributionChart({ registrations }: { registrations: StatRegistrationRow[] }) {
  const counts = answerDistribution(registrations)
  const label = (c: (typeof counts)[number]) =>
    `${c.text} (${c.entity === 'person' ? da.statistics.ownOption : da.statistics.locationOption})`
  const data = useMemo<uPlot.AlignedData>(() => [counts.map((_, index) => index), counts.map((c) => c.count)], [counts])
  const options = useMemo<Omit<uPlot.Options, 'width' | 'height'>>(
    () => ({
      legend: { show: false },
      scales: {
        x: { time: false, range: [-0.5, counts.length - 0.5] },
        y: { range: (_u, _min, max) => [0, max * 1.1] },
      },
      axes: [axis((_u, splits) => splits.map((index) => counts[index]?.text ?? '')), axis()],
      series: [
        {},
        {
          label: da.statistics.count,
          stroke: CHART_COLORS.primary,
          fill: `${CHART_COLORS.primary}cc`,
          paths: uPlot.paths.bars?.({ size: [0.6, 80] }),
          points: { show: false },
        },
      ],
    }),
    [counts],
  )
  const total = counts.reduce((sum, c) => sum + c.count, 0)
  const top = counts[0]
  return (
    <UplotChart
      title={da.statistics.distributionChart}
      summary={
        top === undefined ? da.statistics.empty : da.statistics.distributionSummary(label(top), top.count, total)
      }
      options={options}
      data={data}
      table={
        <DataTable
          caption={da.statistics.distributionChart}
          head={[da.statistics.answer, da.statistics.kind, da.statistics.count]}
          rows={counts.map((c) => [
            c.text,
            c.entity === 'person' ? da.statistics.ownOption : da.statistics.locationOption,
            c.count,
          ])}
        />
      }
    />
  )
}

function ValuesCharts({
  period,
  persons,
  registrations,
}: {
  period: Period
  persons: StatPerson[]
  registrations: StatRegistrationRow[]
}) {
  const values = registrations.map((r) => r.value)
  const range: [number, number] = [Math.min(0, ...values), Math.max(1, ...values)]
  return (
    <section aria-labelledby="statistics-values" className="small-multiples">
      <h3 id="statistics-values">{da.statistics.valuesChart}</h3>
      <p className="muted">{da.statistics.valuesHint}</p>
      <div className="small-multiples__grid">
        {persons.map((person) => (
          <PersonValues key={person.id} period={period} person={person} registrations={registrations} range={range} />
        ))}
      </div>
    </section>
  )
}

function PersonValues({
  period,
  person,
  registrations,
  range,
}: {
  period: Period
  person: StatPerson
  registrations: StatRegistrationRow[]
  range: [number, number]
}) {
  const series = dailyValues(period, person.id, registrations)
  const data = useMemo<uPlot.AlignedData>(
    () => [series.map((d) => dayToX(d.day)), series.map((d) => d.value)],
    [series],
  )
  const options = useMemo<Omit<uPlot.Options, 'width' | 'height'>>(
    () => ({
      legend: { show: false },
      scales: { x: { time: false }, y: { range } },
      axes: [dayAxis, axis()],
      series: [
        {},
        {
          label: person.name,
          stroke: CHART_COLORS.secondary,
          width: 2,
          spanGaps: false,
          points: { show: true, size: 4 },
        },
      ],
    }),
    [person.name, range],
  )
  const known = series.flatMap((d) => (d.value === null ? [] : [d.value]))
  const average = known.length === 0 ? null : known.reduce((sum, value) => sum + value, 0) / known.length
  return (
    <UplotChart
      title={person.name}
      summary={
        average === null
          ? `${person.name}: ${da.statistics.noValues}.`
          : da.statistics.valuesSummary(person.name, decimal(average))
      }
      options={options}
      data={data}
      height={140}
      table={
        <DataTable
          caption={person.name}
          head={[da.statistics.day, da.statistics.value]}
          rows={series.filter((d) => d.value !== null).map((d) => [formatShortDay(d.day), decimal(d.value)])}
        />
      }
    />
  )
}

type SortKey = 'name' | 'registrations' | 'missingDays' | 'averageValue' | 'lastNote'

function PersonTable({ rows }: { rows: PersonRow[] }) {
  const [sort, setSort] = useState<{ key: SortKey; ascending: boolean }>({ key: 'name', ascending: true })
  const danish = new Intl.Collator('da-DK')
  const sorted = [...rows].sort((a, b) => {
    const x = a[sort.key]
    const y = b[sort.key]
    const order =
      typeof x === 'string' || typeof y === 'string'
        ? danish.compare(String(x ?? ''), String(y ?? ''))
        : (x ?? Number.NEGATIVE_INFINITY) - (y ?? Number.NEGATIVE_INFINITY)
    return (sort.ascending ? order : -order) || danish.compare(a.name, b.name)
  })
  const column = (key: SortKey, label: string) => (
    <th scope="col" aria-sort={sort.key === key ? (sort.ascending ? 'ascending' : 'descending') : 'none'}>
      <button
        type="button"
        className="table-sort"
        onClick={() => setSort((now) => ({ key, ascending: now.key === key ? !now.ascending : true }))}
      >
        {label}
        <span aria-hidden="true">{sort.key === key ? (sort.ascending ? ' ▲' : ' ▼') : ''}</span>
      </button>
    </th>
  )
  return (
    <section aria-labelledby="statistics-persons">
      <h3 id="statistics-persons">{da.statistics.personTable}</h3>
      <TableScroll label={da.statistics.personTable}>
        <table>
          <thead>
            <tr>
              {column('name', da.statistics.persons)}
              {column('registrations', da.statistics.registrations)}
              {column('missingDays', da.statistics.missingDays)}
              {column('averageValue', da.statistics.averageValue)}
              <th scope="col">{da.statistics.trend}</th>
              {column('lastNote', da.statistics.lastNote)}
            </tr>
          </thead>
          <tbody>
            {sorted.map((row) => (
              <tr key={row.id}>
                <th scope="row">
                  <Link to={`/person/${encodeURIComponent(row.id)}/daily`}>{row.name}</Link>
                </th>
                <td>{row.registrations}</td>
                <td>{row.missingDays}</td>
                <td>{decimal(row.averageValue)}</td>
                <td>{row.trend === null ? '–' : TREND_TEXT[row.trend]}</td>
                <td>{row.lastNote === null ? '–' : formatShortDay(row.lastNote)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  )
}

function DataTable({ caption, head, rows }: { caption: string; head: string[]; rows: (string | number)[][] }) {
  return (
    <table className="data-table">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {head.map((cell) => (
            <th key={cell} scope="col">
              {cell}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={String(row[0])}>
            {head.map((column, index) =>
              index === 0 ? (
                <th key={column} scope="row">
                  {row[index]}
                </th>
              ) : (
                <td key={column}>{row[index]}</td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  )
}
