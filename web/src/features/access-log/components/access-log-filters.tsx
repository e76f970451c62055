import { ACCESS_OPERATIONS, type AccessLogPage } from '@bosted/domain/access-log'
import { daAccessLog } from '@bosted/domain/messages/da-access-log'
import { type FormEvent, useId, useState } from 'react'
import { isDay } from '../../../lib/days.ts'
import { type AccessLogFilter, isOperation } from '../access-log-filter.ts'

const text = daAccessLog
const danish = new Intl.Collator('da-DK')

type Props = {
  filter: AccessLogFilter
  /** Everyone in the person's log (the api's `actors`), for the staff choice. */
  actors: AccessLogPage['actors']
  onFilter: (filter: AccessLogFilter) => void
}

/** The viewer's filters, applied together ("Vis"): a period, a staff member, an operation. */
export function AccessLogFilters({ filter, actors, onFilter }: Props) {
  const [from, setFrom] = useState(filter.from)
  const [to, setTo] = useState(filter.to)
  const [actor, setActor] = useState(filter.actor)
  const [operation, setOperation] = useState(filter.operation)
  const ids = { from: useId(), to: useId(), actor: useId(), operation: useId() }
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
    const [first, last] = from <= to ? [from, to] : [to, from]
    onFilter({ from: first, to: last, actor, operation })
  }
  return (
    <form className="form access-log__filters" aria-label={text.filters} onSubmit={handleSubmit}>
      <div className="field">
        <label htmlFor={ids.from}>{text.filterFrom}</label>
        <input
          id={ids.from}
          type="date"
          value={from}
          required
          onChange={(event) => isDay(event.target.value) && setFrom(event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={ids.to}>{text.filterTo}</label>
        <input
          id={ids.to}
          type="date"
          value={to}
          required
          onChange={(event) => isDay(event.target.value) && setTo(event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={ids.actor}>{text.filterActor}</label>
        <select id={ids.actor} value={actor} onChange={(event) => setActor(event.target.value)}>
          <option value="">{text.filterAll}</option>
          {choices.map((choice) => (
            <option key={choice.uid} value={choice.uid}>
              {choice.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={ids.operation}>{text.filterOperation}</label>
        <select
          id={ids.operation}
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
      </div>
      <div className="form__actions">
        <button type="submit" className="button button--secondary">
          {text.apply}
        </button>
      </div>
    </form>
  )
}
