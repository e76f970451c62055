import { da } from '@bosted/domain/messages/da'
import { useState } from 'react'
import { Link } from 'react-router-dom'
import { TableScroll } from '../../../components/ui/table-scroll.tsx'
import { formatShortDay } from '../../../lib/days.ts'
import { paths } from '../../../lib/paths.ts'
import type { PersonRow } from '../compute.ts'
import { decimal, TREND_TEXT } from '../format.ts'

type SortKey = 'name' | 'registrations' | 'missingDays' | 'averageValue' | 'lastNote'

/** The per-person table, sortable by each column but the trend; each name leads to the person's day view. */
export function PersonTable({ rows }: { rows: PersonRow[] }) {
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
                  <Link to={paths.person.daily(row.id)}>{row.name}</Link>
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
