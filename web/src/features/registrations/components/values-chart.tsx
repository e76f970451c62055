import { formatShortDay } from '../../../lib/days.ts'

type Point = { day: string; value: number | null }
type Props = { title: string; summary: string; points: readonly Point[] }

const WIDTH = 300
const HEIGHT = 80
const GAP = 2

/**
 * A small bar chart of a value per day (hand-written SVG, no chart library). Named by its title;
 * the summary says in words what it shows, and each bar carries its day and value.
 */
export function ValuesChart({ title, summary, points }: Props) {
  const values = points.map((point) => point.value).filter((value): value is number => value !== null)
  const max = Math.max(1, ...values)
  const min = Math.min(0, ...values)
  const barWidth = WIDTH / Math.max(points.length, 1)
  const y = (value: number) => HEIGHT - ((value - min) / (max - min)) * HEIGHT
  return (
    <figure className="values-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={`${title}. ${summary}`} preserveAspectRatio="none">
        <line x1={0} x2={WIDTH} y1={y(0)} y2={y(0)} className="values-chart__axis" />
        {points.map((point, index) =>
          point.value === null ? null : (
            <rect
              key={point.day}
              x={index * barWidth + GAP / 2}
              width={Math.max(barWidth - GAP, 1)}
              y={Math.min(y(point.value), y(0))}
              height={Math.max(Math.abs(y(0) - y(point.value)), 1)}
              className="values-chart__bar"
            >
              <title>{`${formatShortDay(point.day)}: ${point.value}`}</title>
            </rect>
          ),
        )}
      </svg>
      <figcaption>
        {title}. {summary}
      </figcaption>
    </figure>
  )
}

/** The mean value per day (null for a day without registrations), one point per day of `days`. */
export function dailyMeans(days: readonly string[], registrations: readonly { day: string; value: number }[]): Point[] {
  return days.map((day) => {
    const values = registrations.filter((registration) => registration.day === day).map((r) => r.value)
    return { day, value: values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length }
  })
}
