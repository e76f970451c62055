import { da } from '@bosted/domain/messages/da'
import { type ReactNode, useEffect, useRef } from 'react'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'

type Props = {
  title: string
  /** What the chart shows, in words (for everyone, and all a screen reader needs with the table). */
  summary: string
  /** The chart's options without its size; the width follows the box. */
  options: Omit<uPlot.Options, 'width' | 'height'>
  data: uPlot.AlignedData
  height?: number
  /** The numbers behind the chart, shown on "Vis som tabel". */
  table: ReactNode
}

/**
 * A chart (uPlot, canvas) with its title, a text summary and its data as a table on demand; the
 * canvas itself is hidden from assistive technology, which gets the summary and the table.
 */
export function UplotChart({ title, summary, options, data, height = 220, table }: Props) {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const element = box.current
    if (element === null) return
    const chart = new uPlot({ ...options, width: element.clientWidth || 600, height }, data, element)
    const observer = new ResizeObserver(() => chart.setSize({ width: element.clientWidth || 600, height }))
    observer.observe(element)
    return () => {
      observer.disconnect()
      chart.destroy()
    }
  }, [options, data, height])
  return (
    <figure className="chart">
      <figcaption className="chart__title">{title}</figcaption>
      <div ref={box} className="chart__canvas" aria-hidden="true" />
      <p className="chart__summary">{summary}</p>
      <details className="chart__table">
        <summary>{da.statistics.showTable}</summary>
        {table}
      </details>
    </figure>
  )
}

/** The product's chart colours: dark enough on white (WCAG 1.4.11), told apart by more than hue. */
export const CHART_COLORS = { primary: '#1d4f91', secondary: '#8a4b00', grid: '#d7dce5', text: '#3b4556' }

/** Days as uPlot's x values: seconds at noon UTC, so a DST day never shifts onto its neighbour. */
export const dayToX = (day: string) => Date.parse(`${day}T12:00:00Z`) / 1000
