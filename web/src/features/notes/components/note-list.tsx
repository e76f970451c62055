import { da } from '@bosted/domain/messages/da'
import { displayName } from '@bosted/domain/names'
import { notesPath } from '@bosted/domain/paths'
import type { Person } from '@bosted/domain/person'
import { useId, useRef, useState } from 'react'
import { Link } from 'react-router-dom'
import { WriteStatus } from '../../../components/ui/write-status.tsx'
import { PersonAvatar } from '../../../lib/avatars/person-avatar.tsx'
import { dayOf, formatDay, formatShortDay, formatTime } from '../../../lib/days.ts'
import { paths } from '../../../lib/paths.ts'
import { useChangeCue } from '../../../lib/use-change-cue.ts'
import type { StoredNote } from '../api/note-document.ts'
import { lastCorrection, versions } from '../note-history.ts'
import { groupByDay } from '../notes-filter.ts'

/** A moment as the diary shows it: "ti. 12. mar. kl. 14.05". */
const moment = (instant: string) => `${formatShortDay(dayOf(instant))} ${da.notes.at(formatTime(instant))}`

type Props = {
  notes: readonly StoredNote[]
  /** The persons by id; null on a person's own diary, where the person is not repeated. */
  persons: ReadonlyMap<string, Person> | null
  canCorrect: (note: StoredNote) => boolean
  canDelete: (note: StoredNote) => boolean
  onCorrect: (note: StoredNote) => void
  onDelete: (note: StoredNote) => void
}

/** Diary entries grouped by day, newest first: who, when, how, the text; corrections and deletions stay visible. */
export function NoteList({ notes, persons, ...actions }: Props) {
  // An entry written after the list was first shown is a newcomer (older pages loaded later are not).
  const newestShown = useRef(
    notes
      .map((note) => note.createdAt)
      .sort()
      .at(-1) ?? '',
  )
  return (
    <div className="note-days">
      {groupByDay(notes).map(({ day, notes: entries }) => (
        <section key={day} className="note-day" aria-label={da.notes.entriesOf(formatDay(day))}>
          <h2 className="note-day__title">{formatDay(day)}</h2>
          <ul className="note-list">
            {entries.map((note) => (
              // Note ids are unique per person only (persons/{id}/notes/{noteId}).
              <NoteEntry
                key={`${note.personId}/${note.id}`}
                note={note}
                person={persons?.get(note.personId) ?? null}
                isNewcomer={note.createdAt > newestShown.current}
                {...actions}
              />
            ))}
          </ul>
        </section>
      ))}
    </div>
  )
}

type EntryProps = Omit<Props, 'notes' | 'persons'> & { note: StoredNote; person: Person | null; isNewcomer: boolean }

function NoteEntry({ note, person, isNewcomer, canCorrect, canDelete, onCorrect, onDelete }: EntryProps) {
  const [showVersions, setShowVersions] = useState(false)
  // Written, corrected or deleted since the list was shown.
  const isChanged = useChangeCue(`${note.text}|${note.deleted?.at ?? ''}`, isNewcomer)
  const versionsId = useId()
  const written = dayOf(note.createdAt)
  const corrected = lastCorrection(note)
  const earlier = versions(note).slice(1)
  const name = person === null ? null : displayName(person)
  return (
    <li className={`note${note.deleted === undefined ? '' : ' note--deleted'}${isChanged ? ' is-changed' : ''}`}>
      <article aria-label={name === null ? moment(note.createdAt) : `${name}, ${moment(note.createdAt)}`}>
        <header className="note__head">
          {person !== null && (
            <>
              <PersonAvatar person={person} />
              <Link className="note__person" to={paths.person.notes(person.id)}>
                {name}
              </Link>
            </>
          )}
          <span className="note__meta">
            {da.notes.at(formatTime(note.createdAt))} {da.notes.by(note.authorName)}
          </span>
          <span className="badge">{note.source === 'speech' ? da.notes.speech : da.notes.keyboard}</span>
          {note.createdBy === note.personId && <span className="badge badge--info">{da.selfMade.note}</span>}
          {written > note.day && (
            <span className="badge badge--info">{da.notes.backdated(formatShortDay(written))}</span>
          )}
          <WriteStatus path={`${notesPath(note.personId)}/${note.id}`} />
        </header>
        {note.deleted === undefined ? (
          <p className="note__text">{note.text}</p>
        ) : (
          <p className="note__deleted">
            {da.notes.deleted(moment(note.deleted.at), note.deleted.byName, note.deleted.reason)}
          </p>
        )}
        {corrected !== null && (
          <div className="note__history">
            <span className="muted">{da.notes.corrected(moment(corrected.at), corrected.byName)}</span>{' '}
            {note.deleted === undefined && (
              <button
                type="button"
                className="button button--small button--secondary"
                aria-expanded={showVersions}
                aria-controls={versionsId}
                onClick={() => setShowVersions((shown) => !shown)}
              >
                {showVersions ? da.notes.hideVersions : da.notes.showVersions(earlier.length)}
              </button>
            )}
            {showVersions && (
              <ol id={versionsId} className="note__versions">
                {earlier.map((version) => (
                  <li key={version.replacedAt}>
                    <p className="muted">
                      {da.notes.version(moment(version.replacedAt ?? ''), version.replacedBy ?? '')}
                    </p>
                    <p className="note__text">{version.text}</p>
                  </li>
                ))}
              </ol>
            )}
          </div>
        )}
        {note.deleted === undefined && (canCorrect(note) || canDelete(note)) && (
          <footer className="note__actions">
            {canCorrect(note) && (
              <button type="button" className="button button--small button--secondary" onClick={() => onCorrect(note)}>
                {da.notes.correct}
              </button>
            )}
            {canDelete(note) && (
              <button type="button" className="button button--small button--secondary" onClick={() => onDelete(note)}>
                {da.notes.delete}
              </button>
            )}
          </footer>
        )}
      </article>
    </li>
  )
}
