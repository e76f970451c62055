import { da } from '@bosted/domain/messages/da'
import { notesPath, registrationsPath } from '@bosted/domain/paths'
import { useId } from 'react'
import { WriteStatus } from '../../../components/ui/write-status.tsx'
import { formatDay, formatTime } from '../../../lib/days.ts'
import type { StoredRegistration } from '../api/registration-document.ts'

/** A diary entry as the list shows it (the notes feature's entries fit this shape). */
export type DayNote = { id: string; day: string; createdAt: string; createdBy: string; text: string; deleted?: unknown }

type DayEntry =
  | { kind: 'registration'; at: string; item: StoredRegistration }
  | { kind: 'note'; at: string; item: DayNote }

type Props = { personId: string; registrations: readonly StoredRegistration[]; notes: readonly DayNote[] }

/** "Min dag": the person's last days, newest first, their answers and diary entries in the order written. */
export function LastDays({ personId, registrations, notes }: Props) {
  const id = useId()
  const byDay = new Map<string, DayEntry[]>()
  const add = (entry: DayEntry, entryDay: string) => byDay.set(entryDay, [...(byDay.get(entryDay) ?? []), entry])
  for (const item of registrations) add({ kind: 'registration', at: item.createdAt, item }, item.day)
  for (const item of notes) add({ kind: 'note', at: item.createdAt, item }, item.day)
  const days = [...byDay.keys()].sort().reverse()
  const by = (createdBy: string) => (createdBy === personId ? da.me.byYou : da.me.byStaff)
  return (
    <section className="me__card" aria-labelledby={id}>
      <h2 id={id}>{da.me.lastDays}</h2>
      {days.length === 0 && <p className="muted">{da.me.nothingYet}</p>}
      {days.map((entryDay) => (
        <section key={entryDay} className="me__day" aria-label={formatDay(entryDay)}>
          <h3>{formatDay(entryDay)}</h3>
          <ul className="me__entries">
            {(byDay.get(entryDay) ?? [])
              .sort((a, b) => a.at.localeCompare(b.at))
              .map((entry) => (
                <li key={`${entry.kind}-${entry.item.id}`}>
                  {entry.kind === 'registration' ? (
                    <p>
                      <strong>{entry.item.text}</strong>{' '}
                      <span className="muted">
                        {da.notes.at(formatTime(entry.at))} {by(entry.item.createdBy)}
                      </span>{' '}
                      <WriteStatus path={`${registrationsPath(personId)}/${entry.item.id}`} />
                    </p>
                  ) : entry.item.deleted !== undefined ? (
                    <p className="muted">{da.me.deletedNote}</p>
                  ) : (
                    <>
                      <p className="note__text">{entry.item.text}</p>
                      <p className="muted">
                        {da.notes.at(formatTime(entry.at))} {by(entry.item.createdBy)}{' '}
                        <WriteStatus path={`${notesPath(personId)}/${entry.item.id}`} />
                      </p>
                    </>
                  )}
                </li>
              ))}
          </ul>
        </section>
      ))}
    </section>
  )
}
