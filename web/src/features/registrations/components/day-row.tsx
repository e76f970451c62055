import { da } from '@bosted/domain/messages/da'
import type { Person } from '@bosted/domain/person'
import { type ReactNode, useId } from 'react'
import { Link } from 'react-router-dom'
import { useChangeCue } from '../../../lib/use-change-cue.ts'
import type { DayRow as Row } from '../registration-status.ts'
import type { RegistrationFlow } from './registration-flow.tsx'
import { RegistrationList } from './registration-list.tsx'
import { StatusBadge } from './status-badge.tsx'

type Props = Row<Person> & {
  name: string
  avatar: ReactNode
  /** Where the person's name and their day's diary count lead. */
  links: { daily: string; notes: string }
  /** Who wrote a registration (by uid), when the registration does not say. */
  authorName: (uid: string) => string | null
  flow: RegistrationFlow
  day: string
  /** A day still to come: no "Registrer". */
  isReadOnly: boolean
}

/** One person on the daily overview: status, the day's registrations, diary count and "Registrer". */
export function DayRow(props: Props) {
  const { person, name, avatar, links, registrations, reminderTime, status, notes, flow, day, isReadOnly } = props
  const nameId = useId()
  // A registration added, corrected or deleted, or a diary entry written, since the row was shown.
  const isChanged = useChangeCue(
    `${registrations.map((registration) => `${registration.id}@${registration.updatedAt ?? ''}`).join()}|${notes}`,
  )
  return (
    <li className="daily-row">
      <article aria-labelledby={nameId} className={isChanged ? 'daily-row__card is-changed' : 'daily-row__card'}>
        <header className="daily-row__head">
          {avatar}
          <h2 id={nameId} className="daily-row__name">
            <Link to={links.daily}>{name}</Link>
          </h2>
          <StatusBadge status={status} reminderTime={reminderTime} />
        </header>
        {registrations.length > 0 && (
          <RegistrationList
            registrations={registrations}
            authorName={props.authorName}
            canChange={flow.canChange}
            onCorrect={(registration) => flow.correct(person, registration)}
            onDelete={(registration) => flow.remove(person, registration)}
          />
        )}
        <footer className="daily-row__foot">
          {notes > 0 && <Link to={links.notes}>{da.daily.notes(notes)}</Link>}
          {!isReadOnly && (
            <button
              type="button"
              className="button button--action"
              aria-label={da.registration.registerFor(name)}
              onClick={() => flow.register(person, day)}
            >
              {da.registration.register}
            </button>
          )}
        </footer>
      </article>
    </li>
  )
}
