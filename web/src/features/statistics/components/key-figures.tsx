import { da } from '@bosted/domain/messages/da'
import type { KeyFigures as Figures } from '../compute.ts'
import { decimal, percent } from '../format.ts'

/** The key figures of the period, each with its change against the period before. */
export function KeyFigures({ current, previous }: { current: Figures; previous: Figures }) {
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
