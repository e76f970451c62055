import { DEFAULT_LOCATION_FEATURES, type LocationFeatures } from '@bosted/domain/location'
import { da } from '@bosted/domain/messages/da'
import type { Person } from '@bosted/domain/person'
import { useMemo, useState } from 'react'
import { Loading } from '../../../components/ui/loading.tsx'
import { QueryState } from '../../../components/ui/query-state.tsx'
import { SkippedNotice } from '../../../components/ui/skipped-notice.tsx'
import { useCorrectNote } from '../api/correct-note.ts'
import { useCreateNote } from '../api/create-note.ts'
import { useDeleteNote } from '../api/delete-note.ts'
import type { StoredNote } from '../api/note-document.ts'
import { diaryList, useNotesList } from '../api/search-notes.ts'
import { disabledDictation, webSpeechEngine } from '../dictation/dictation.ts'
import { hasCorrectionsLeft } from '../note-history.ts'
import type { NotesFilter } from '../notes-filter.ts'
import { CorrectNoteDialog, DeleteNoteDialog } from './note-dialogs.tsx'
import { NoteEditor, type NoteInput } from './note-editor.tsx'
import { NoteList } from './note-list.tsx'
import { PeriodFilter } from './period-filter.tsx'

type Props = {
  /** Who writes: the signed-in staff member; a manager may correct and delete anyone's entries. */
  author: { id: string; name: string; isManager: boolean }
  location: { id: string; features?: LocationFeatures | undefined }
  /** The persons whose entries are listed and who may be written for. */
  persons: readonly Person[]
  /** How a person is named in the editor and the filter. */
  nameOf: (person: Person) => string
  /** One person's own diary (/person/{id}/notes): no person filter, and the person is not repeated. */
  isOwnDiary?: boolean
  filter: NotesFilter
  onFilter: (filter: NotesFilter) => void
}

/**
 * The diary of a location (/notes) or of one person (/person/{id}/notes): the editor, the filters,
 * the entries page by page, and correcting and deleting them with their promise toasts.
 */
export function Diary({ author, location, persons, nameOf, isOwnDiary = false, filter, onFilter }: Props) {
  const editor = { id: author.id, name: author.name }
  const features = location.features ?? DEFAULT_LOCATION_FEATURES
  const cloudAllowed = features.dictation && features.cloudDictation
  const engine = useMemo(
    () => (features.dictation ? webSpeechEngine({ cloudAllowed }) : disabledDictation),
    [features.dictation, cloudAllowed],
  )
  const byId = useMemo(() => new Map(persons.map((person) => [person.id, person])), [persons])
  const [correcting, setCorrecting] = useState<StoredNote | null>(null)
  const [deleting, setDeleting] = useState<StoredNote | null>(null)

  const list = useNotesList(diaryList(location.id, filter, isOwnDiary ? persons.map((person) => person.id) : undefined))
  const create = useCreateNote()
  const correct = useCorrectNote(editor)
  const remove = useDeleteNote(editor)
  const handleSave = ({ personId, day, text, dictated }: NoteInput) =>
    create.mutateAsync({
      personId,
      locationId: byId.get(personId)?.locationId ?? location.id,
      day,
      text,
      source: dictated ? 'speech' : 'keyboard',
      createdBy: author.id,
      authorName: author.name,
    })

  const notes = list.data?.pages.flatMap((page) => page.notes) ?? []
  const skipped = list.data?.pages.reduce((sum, page) => sum + page.skipped, 0) ?? 0
  const writable = persons.filter((person) => !person.settings.disabled)
  const choices = (shown: readonly Person[]) => shown.map((person) => ({ id: person.id, name: nameOf(person) }))
  return (
    <div className="diary">
      {writable.length > 0 && (
        <section className="diary__editor" aria-label={da.notes.write}>
          <h2>{da.notes.write}</h2>
          <NoteEditor
            userId={author.id}
            persons={choices(writable)}
            locationId={location.id}
            engine={engine}
            onSave={handleSave}
          />
        </section>
      )}
      <PeriodFilter
        key={JSON.stringify(filter)}
        persons={isOwnDiary ? null : choices(persons)}
        filter={filter}
        onFilter={onFilter}
        label={da.notes.filters}
        hasSearch
      />
      <QueryState
        query={list}
        errorMessage={da.notes.loadFailed}
        report="the diary could not be loaded"
        loading={
          <div aria-busy="true">
            <Loading />
          </div>
        }
      >
        {() => (
          <>
            <SkippedNotice kind="notes" count={skipped} />
            {notes.length === 0 && !list.hasNextPage && (
              <p className="muted">{filter.query === '' ? da.notes.none : da.notes.noneFound(filter.query)}</p>
            )}
            <NoteList
              notes={notes}
              persons={isOwnDiary ? null : byId}
              canCorrect={(note) => (note.createdBy === author.id || author.isManager) && hasCorrectionsLeft(note)}
              canDelete={() => author.isManager}
              onCorrect={setCorrecting}
              onDelete={setDeleting}
            />
            {list.hasNextPage && (
              <button
                type="button"
                className="button button--secondary diary__more"
                disabled={list.isFetchingNextPage}
                onClick={() => void list.fetchNextPage()}
              >
                {da.notes.more}
              </button>
            )}
          </>
        )}
      </QueryState>
      <CorrectNoteDialog
        note={correcting}
        onClose={() => setCorrecting(null)}
        onSave={(note, text) => {
          setCorrecting(null)
          correct.mutate({ note, text })
        }}
      />
      <DeleteNoteDialog
        note={deleting}
        onClose={() => setDeleting(null)}
        onDelete={(note, reason) => {
          setDeleting(null)
          remove.mutate({ note, reason })
        }}
      />
    </div>
  )
}
