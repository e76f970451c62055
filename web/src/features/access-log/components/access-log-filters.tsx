import { ACCESS_OPERATIONS, type AccessLogPage } from '@bosted/domain/access-log'
import { daAccessLog } from '@bosted/domain/messages/da-access-log'
import { type FormEvent, useState } from 'react'
import { Field } from '../../../components/ui/field.tsx'
import { isDay } from '../../../lib/days.ts'
import { type AccessLogFilter, isOperation, submittedAccessLogFilter } from '../access-log-filter.ts'

const text = daAccessLog
const danish = new Intl.Collator('da-DK')

type Props = {
  filter: AccessLogFilter
  /** Everyone in the person's log (the api's `actors`), for the staff choice. */
  actors: AccessLogPage['actors']
  onFilter: (filter: AccessLogFilter) => void
}

/**
 * The viewer's filters, applied together ("Vis"): a period, a staff member, an operation. Field + the
 * domain's query schema, not react-hook-form: its chunk (15.3 KB gzip with the resolvers) would more
 * than double the viewer's route code (9.5 KB, measured 2026-11-26).
 */
export function AccessLogFilters({ filter, actors, onFilter }: Props) {
  const [from, setFrom] = useState(filter.from)
  const [to, setTo] = useState(filter.to)
  const [actor, setActor] = useState(filter.actor)
  const [operation, setOperation] = useState(filter.operation)
  const choices = [...actors]
    .map((candidate) => ({
      uid: candidate.uid,
      label: `${candidate.name ?? text.unknownActor} (${text.roles[candidate.role]})`,
    }))
    .sort((a, b) => danish.compare(a.label, b.label))
  // A staff member chosen through the URL stays a valid choice before the list has loaded.
  if (actor !== '' && !choices.some((choice) => choice.uid === actor)) choices.push({ uid: actor, label: actor })

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault()
    const submitted = submittedAccessLogFilter({ from, to, actor, operation })
    if (submitted !== null) onFilter(submitted)
  }
  return (
    <form className="form access-log__filters" aria-label={text.filters} onSubmit={handleSubmit}>
      <Field label={text.filterFrom}>
        {(control) => (
          <input
            {...control}
            type="date"
            value={from}
            required
            onChange={(event) => isDay(event.target.value) && setFrom(event.target.value)}
          />
        )}
      </Field>
      <Field label={text.filterTo}>
        {(control) => (
          <input
            {...control}
            type="date"
            value={to}
            required
            onChange={(event) => isDay(event.target.value) && setTo(event.target.value)}
          />
        )}
      </Field>
      <Field label={text.filterActor}>
        {(control) => (
          <select {...control} value={actor} onChange={(event) => setActor(event.target.value)}>
            <option value="">{text.filterAll}</option>
            {choices.map((choice) => (
              <option key={choice.uid} value={choice.uid}>
                {choice.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={text.filterOperation}>
        {(control) => (
          <select
            {...control}
            value={operation}
            onChange={(event) => setOperation(isOperation(event.target.value) ? event.target.value : '')}
          >
            <option value="">{text.filterAll}</option>
            {ACCESS_OPERATIONS.map((value) => (
              <option key={value} value={value}>
                {text.operations[value]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="form__actions">
        <button type="submit" className="button button--secondary">
          {text.apply}
        </button>
      </div>
    </form>
  )
}
