import { da } from '@bosted/domain/messages/da'
import { registrationsPath } from '@bosted/domain/paths'
import { WriteStatus } from '../../../components/ui/write-status.tsx'
import { dayOf, formatShortDay, formatTime } from '../../../lib/days.ts'
import type { StoredRegistration } from '../api/registration-document.ts'

type Props = {
  registrations: readonly StoredRegistration[]
  authorName: (uid: string) => string | null
  canChange: (registration: StoredRegistration) => boolean
  onCorrect: (registration: StoredRegistration) => void
  onDelete: (registration: StoredRegistration) => void
}

/** A day's registrations: answer, value, time, who, comment; made after the day shows as such. */
export function RegistrationList({ registrations, authorName, canChange, onCorrect, onDelete }: Props) {
  return (
    <ul className="registrations">
      {registrations.map((registration) => {
        const madeOn = dayOf(registration.createdAt)
        // The name stored with the registration; older ones are looked up by uid.
        const author = registration.createdByName ?? authorName(registration.createdBy)
        return (
          <li key={registration.id} className="registration">
            <span className="registration__answer">
              {registration.text} <span className="registration__value">({registration.value})</span>
            </span>
            <span className="registration__meta">
              {da.registration.at(formatTime(registration.createdAt))}
              {author !== null && ` ${da.registration.by(author)}`}
              {madeOn > registration.day && ` · ${da.registration.late(formatShortDay(madeOn))}`}
            </span>
            {registration.createdBy === registration.personId && (
              <span className="badge badge--info">{da.selfMade.registration}</span>
            )}
            <WriteStatus path={`${registrationsPath(registration.personId)}/${registration.id}`} />
            {registration.comment !== undefined && (
              <span className="registration__comment">{registration.comment}</span>
            )}
            {canChange(registration) && (
              <span className="registration__actions">
                <button
                  type="button"
                  className="button button--small button--secondary"
                  aria-label={`${da.registration.correct}: ${registration.text}`}
                  onClick={() => onCorrect(registration)}
                >
                  {da.registration.correct}
                </button>
                <button
                  type="button"
                  className="button button--small button--secondary"
                  aria-label={`${da.registration.delete}: ${registration.text}`}
                  onClick={() => onDelete(registration)}
                >
                  {da.registration.delete}
                </button>
              </span>
            )}
          </li>
        )
      })}
    </ul>
  )
}
