import { da } from '@bosted/domain/messages/da'
import type { StatRegistration } from '@bosted/domain/statistics'
import { useMemo } from 'react'
import uPlot from 'uplot'
import { formatShortDay, today } from '../../../lib/days.ts'
import {
  answerDistribution,
  coverageByDay,
  coverageSummary,
  dailyValues,
  type Period,
  type StatPerson,
} from '../compute.ts'
import { decimal, percent } from '../format.ts'
import { DataTable } from './data-table.tsx'
import { CHART_COLORS, dayToX, UplotChart } from './uplot-chart.tsx'

const axis = (values?: uPlot.Axis['values']): uPlot.Axis => ({
  stroke: CHART_COLORS.text,
  grid: { stroke: CHART_COLORS.grid, width: 1 },
  ticks: { stroke: CHART_COLORS.grid, width: 1 },
  ...(values === undefined ? {} : { values }),
})
const dayAxis = axis((_u, splits) => splits.map((x) => formatShortDay(new Date(x * 1000).toISOString().slice(0, 10))))
/** Coverage per day: the share of the persons there who have a registration. */
export function CoverageChart({
  period,
  persons,
  registrations,
}: {
  period: Period
  persons: StatPerson[]
  registrations: StatRegistration[]
}) {
  const days = useMemo(() => coverageByDay(period, persons, registrations), [period, persons, registrations])
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
/** How often each answer was given (bars). */
export function DistributionChart({ registrations }: { registrations: StatRegistration[] }) {
  const counts = useMemo(() => answerDistribution(registrations), [registrations])
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
/** One small chart of the daily value per compared person (small multiples). */
export function ValuesCharts({
  period,
  persons,
  registrations,
}: {
  period: Period
  persons: StatPerson[]
  registrations: StatRegistration[]
}) {
  // One scale for every small chart; kept while the registrations are the same (see PersonValues).
  const range = useMemo<[number, number]>(() => {
    const values = registrations.map((r) => r.value)
    return [Math.min(0, ...values), Math.max(1, ...values)]
  }, [registrations])
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
  registrations: StatRegistration[]
  range: [number, number]
}) {
  // The same series while the inputs are the same: a new one would draw the chart anew.
  const series = useMemo(() => dailyValues(period, person.id, registrations), [period, person.id, registrations])
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
