import { DEFAULT_LOCATION_FEATURES, type LocationFeatures } from '@bosted/domain/location'
import { da } from '@bosted/domain/messages/da'
import type { Person } from '@bosted/domain/person'
import { canManage, roleOfClaims } from '@bosted/domain/user'
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo, useState } from 'react'
import { SkippedNotice } from '../../components/ui/skipped-notice.tsx'
import { disabledDictation, webSpeechEngine } from '../../features/dictation/dictation.ts'
import { correctNote } from '../../features/notes/api/correct-note.ts'
import { createNote } from '../../features/notes/api/create-note.ts'
import { deleteNote } from '../../features/notes/api/delete-note.ts'
import { getNotesPage } from '../../features/notes/api/get-notes-page.ts'
import type { StoredNote } from '../../features/notes/api/note-document.ts'
import { MAX_PERSON_FILTER, type NotesCursor } from '../../features/notes/api/notes-query.ts'
import { searchNotesPage } from '../../features/notes/api/search-notes.ts'
import { CorrectNoteDialog, DeleteNoteDialog } from '../../features/notes/components/note-dialogs.tsx'
import { NoteList } from '../../features/notes/components/note-list.tsx'
import { hasCorrectionsLeft } from '../../features/notes/note-history.ts'
import type { NotesFilter } from '../../features/notes/notes-filter.ts'
import { fullName, type SessionUser } from '../../features/session/session-store.ts'
import { isConcurrentEdit } from '../../lib/concurrent-edit.ts'
import { queryKeys } from '../../lib/query-keys.ts'
import { toastPromise } from '../../lib/toast.ts'
import { RouteLoading } from '../layout/route-loading.tsx'
import { NoteEditor, type NoteInput } from './note-editor.tsx'
import { PeriodFilter } from './period-filter.tsx'

/** Entries per page ("Vis flere" loads the next by cursor). */
export const NOTES_PAGE_SIZE = 25

type Props = {
  user: SessionUser
  location: { id: string; features?: LocationFeatures | undefined }
  /** The persons whose entries are listed and who may be written for. */
  persons: readonly Person[]
  /** One person's own diary (/person/{id}/notes): no person filter, and the person is not repeated. */
  isOwnDiary?: boolean
  filter: NotesFilter
  onFilter: (filter: NotesFilter) => void
}

/**
 * The diary of a location (/notes) or of one person (/person/{id}/notes): the editor, the filters,
 * the entries page by page, and correcting and deleting them with their promise toasts.
 */
export function Diary({ user, location, persons, isOwnDiary = false, filter, onFilter }: Props) {
  const queryClient = useQueryClient()
  const personIds = isOwnDiary ? persons.map((person) => person.id) : filter.personIds.slice(0, MAX_PERSON_FILTER)
  const isManager = canManage(roleOfClaims(user.customClaims), user.customClaims)
  const editor = { id: user.id, name: fullName(user) }
  const features = location.features ?? DEFAULT_LOCATION_FEATURES
  const cloudAllowed = features.dictation && features.cloudDictation
  const engine = useMemo(
    () => (features.dictation ? webSpeechEngine({ cloudAllowed }) : disabledDictation),
    [features.dictation, cloudAllowed],
  )
  const byId = useMemo(() => new Map(persons.map((person) => [person.id, person])), [persons])
  const [correcting, setCorrecting] = useState<StoredNote | null>(null)
  const [deleting, setDeleting] = useState<StoredNote | null>(null)

  const list = useInfiniteQuery({
    queryKey: queryKeys.notesList(location.id, personIds, filter.from, filter.to, filter.query),
    queryFn: ({ pageParam }) =>
      searchNotesPage(
        {
          locationId: location.id,
          personIds,
          from: filter.from,
          to: filter.to,
          after: pageParam,
          limit: NOTES_PAGE_SIZE,
        },
        filter.query,
        getNotesPage,
      ),
    initialPageParam: null as NotesCursor | null,
    getNextPageParam: (page) => page.next ?? undefined,
  })
  useEffect(() => {
    if (list.error !== null) console.warn('the diary could not be loaded', list.error.name)
  }, [list.error])

  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.notes })
  const onError = (error: unknown) => console.warn('a diary entry could not be written', (error as Error).name)
  const create = useMutation({
    mutationFn: ({ personId, day, text, dictated }: NoteInput) => {
      const person = byId.get(personId)
      return toastPromise(
        createNote({
          personId,
          locationId: person?.locationId ?? location.id,
          day,
          text,
          source: dictated ? 'speech' : 'keyboard',
          createdBy: user.id,
          authorName: editor.name,
        }),
        { pending: da.notes.pending, resolved: da.notes.ok, rejected: da.notes.fail },
      )
    },
    onSettled: refresh,
    onError,
  })
  const correct = useMutation({
    mutationFn: ({ note, text }: { note: StoredNote; text: string }) =>
      toastPromise(correctNote(note, text, false, editor), {
        pending: da.notes.correctPending,
        resolved: da.notes.correctOk,
        rejected: (error) => (isConcurrentEdit(error) ? da.notes.correctConflict : da.notes.correctFail),
      }),
    onSettled: refresh,
    onError,
  })
  const remove = useMutation({
    mutationFn: ({ note, reason }: { note: StoredNote; reason: string }) =>
      toastPromise(deleteNote(note, reason, editor), {
        pending: da.notes.deletePending,
        resolved: da.notes.deleteOk,
        rejected: da.notes.deleteFail,
      }),
    onSettled: refresh,
    onError,
  })

  const notes = list.data?.pages.flatMap((page) => page.notes) ?? []
  const skipped = list.data?.pages.reduce((sum, page) => sum + page.skipped, 0) ?? 0
  const writable = persons.filter((person) => !person.settings.disabled)
  return (
    <div className="diary">
      {writable.length > 0 && (
        <section className="diary__editor" aria-label={da.notes.write}>
          <h2>{da.notes.write}</h2>
          <NoteEditor
            userId={user.id}
            persons={writable}
            locationId={location.id}
            engine={engine}
            onSave={(input) => create.mutateAsync(input)}
          />
        </section>
      )}
      <PeriodFilter
        key={JSON.stringify(filter)}
        persons={isOwnDiary ? null : persons}
        filter={filter}
        onFilter={onFilter}
        label={da.notes.filters}
        hasSearch
      />
      {list.isError ? (
        <div className="notice notice--error" role="alert">
          <p>{da.notes.loadFailed}</p>
          <button type="button" className="button button--secondary" onClick={() => void list.refetch()}>
            {da.notes.retry}
          </button>
        </div>
      ) : list.isPending ? (
        <div aria-busy="true">
          <RouteLoading />
        </div>
      ) : (
        <>
          <SkippedNotice kind="notes" count={skipped} />
          {notes.length === 0 && !list.hasNextPage && (
            <p className="muted">{filter.query === '' ? da.notes.none : da.notes.noneFound(filter.query)}</p>
          )}
          <NoteList
            notes={notes}
            persons={isOwnDiary ? null : byId}
            canCorrect={(note) => (note.createdBy === user.id || isManager) && hasCorrectionsLeft(note)}
            canDelete={() => isManager}
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
