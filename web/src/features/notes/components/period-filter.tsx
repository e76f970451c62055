import { da } from '@bosted/domain/messages/da'
import { type FormEvent, useId, useState } from 'react'
import { Field } from '../../../components/ui/field.tsx'
import { isDay } from '../../../lib/days.ts'
import { MAX_PERSON_FILTER } from '../api/notes-query.ts'
import { type NotesFilter, NotesFilterSchema, PERIODS, type Period } from '../notes-filter.ts'

type Props = {
  /** The persons to choose among, with their names; null: no person choice (one person's own page). */
  persons: readonly { id: string; name: string }[] | null
  filter: NotesFilter
  onFilter: (filter: NotesFilter) => void
  /** The form's accessible name. */
  label: string
  /** Whether the form has a text search (the diaries). */
  hasSearch?: boolean
  className?: string
}

/**
 * The filters of a period page (diaries, statistics): persons, 7 / 30 / 90 days or a from–to range,
 * and a text search where the page has one. Applied together ("Vis"), parsed with NotesFilterSchema;
 * the page keeps them in the URL. Not react-hook-form: its chunk (15.3 KB gzip with the resolvers)
 * would take /notes' route code from 16.9 KB past its 25 KB budget (measured 2026-11-26).
 */
export function PeriodFilter({ persons, filter, onFilter, label, hasSearch = false, className = '' }: Props) {
  const [chosen, setChosen] = useState<string[]>(filter.personIds)
  const [period, setPeriod] = useState<Period | 'range'>(filter.period)
  const [from, setFrom] = useState(filter.from)
  const [to, setTo] = useState(filter.to)
  const [query, setQuery] = useState(filter.query)
  const periodName = useId()
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault()
    const parsed = NotesFilterSchema.safeParse({ personIds: chosen, period, from, to, query: hasSearch ? query : '' })
    if (parsed.success) onFilter(parsed.data)
  }
  return (
    <form className={`form diary__filters ${className}`.trim()} onSubmit={handleSubmit} aria-label={label}>
      {persons !== null && (
        <details className="diary__persons">
          <summary>{chosen.length === 0 ? da.notes.allPersons : `${da.notes.persons} (${chosen.length})`}</summary>
          <fieldset className="form__group">
            <legend>{da.notes.persons}</legend>
            {persons.map((person) => (
              <label key={person.id} className="choice">
                <input
                  type="checkbox"
                  checked={chosen.includes(person.id)}
                  disabled={!chosen.includes(person.id) && chosen.length >= MAX_PERSON_FILTER}
                  onChange={(event) =>
                    setChosen((current) =>
                      event.target.checked ? [...current, person.id] : current.filter((id) => id !== person.id),
                    )
                  }
                />
                <span>{person.name}</span>
              </label>
            ))}
          </fieldset>
        </details>
      )}
      <span className="diary__label" aria-hidden="true">
        {da.notes.period}
      </span>
      <fieldset className="segmented segmented--wrap">
        <legend className="visually-hidden">{da.notes.period}</legend>
        {[...PERIODS, 'range' as const].map((value) => (
          <label key={value} className="segmented__option">
            <input type="radio" name={periodName} checked={period === value} onChange={() => setPeriod(value)} />
            <span>{value === 'range' ? da.notes.range : da.notes.lastDays(value)}</span>
          </label>
        ))}
      </fieldset>
      {period === 'range' && (
        <div className="note-editor__row">
          <Field label={da.notes.from}>
            {(control) => (
              <input
                {...control}
                type="date"
                value={from}
                onChange={(event) => isDay(event.target.value) && setFrom(event.target.value)}
              />
            )}
          </Field>
          <Field label={da.notes.to}>
            {(control) => (
              <input
                {...control}
                type="date"
                value={to}
                onChange={(event) => isDay(event.target.value) && setTo(event.target.value)}
              />
            )}
          </Field>
        </div>
      )}
      {hasSearch && (
        <Field label={da.notes.search}>
          {(control) => (
            <input {...control} type="search" value={query} onChange={(event) => setQuery(event.target.value)} />
          )}
        </Field>
      )}
      <div className="form__actions">
        <button type="submit" className="button button--secondary">
          {da.notes.apply}
        </button>
      </div>
    </form>
  )
}
