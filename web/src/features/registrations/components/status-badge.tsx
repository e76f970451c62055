import { da } from '@bosted/domain/messages/da'
import type { RegistrationStatus } from '../registration-status.ts'

/** A person's status on the daily overview; "Mangler" and "Ikke endnu" say when it is due. */
export function StatusBadge({ status, reminderTime }: { status: RegistrationStatus; reminderTime: string | null }) {
  const due = reminderTime === null ? da.daily.endOfDay : da.daily.reminderAt(reminderTime)
  if (status === 'notApplicable') return null
  if (status === 'registered') return <span className="badge badge--ok">{da.daily.registered}</span>
  if (status === 'missing')
    return (
      <span className="badge badge--missing">
        {da.daily.missing} <span className="badge__detail">({due})</span>
      </span>
    )
  return (
    <span className="badge">
      {da.daily.notDue} <span className="badge__detail">({due})</span>
    </span>
  )
}
