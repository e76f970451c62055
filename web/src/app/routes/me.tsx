import { type Answer, NoteTextSchema, REGISTRATION_COMMENT_MAX_LENGTH } from '@bosted/domain/answer'
import { DEFAULT_LOCATION_FEATURES } from '@bosted/domain/location-features'
import { da } from '@bosted/domain/messages/da'
import type { Person } from '@bosted/domain/person'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useCallback, useId, useMemo, useRef, useState } from 'react'
import { Link } from 'react-router-dom'
import { useSnapshot } from 'valtio'
import { Page } from '../../components/ui/page.tsx'
import { getAnswerOptions } from '../../features/answers/api/get-answer-options.ts'
import { insertAt, webSpeechEngine } from '../../features/dictation/dictation.ts'
import { DictationButton } from '../../features/dictation/dictation-button.tsx'
import { useDictation } from '../../features/dictation/use-dictation.ts'
import { getSharedFeatures } from '../../features/locations/api/get-shared-features.ts'
import { createNote } from '../../features/notes/api/create-note.ts'
import { getPersonNotes } from '../../features/notes/api/get-person-notes.ts'
import type { StoredNote } from '../../features/notes/api/note-document.ts'
import { getPerson } from '../../features/persons/api/get-person.ts'
import { PersonAvatar } from '../../features/persons/components/person-avatar.tsx'
import { personAbilities } from '../../features/persons/person-features.ts'
import { personName } from '../../features/persons/person-name.ts'
import { createRegistration } from '../../features/registrations/api/create-registration.ts'
import { getPersonRegistrations } from '../../features/registrations/api/get-person-registrations.ts'
import type { StoredRegistration } from '../../features/registrations/api/registration-document.ts'
import { updateRegistration } from '../../features/registrations/api/update-registration.ts'
import { session } from '../../features/session/session-store.ts'
import { addDays, formatDay, formatTime, today } from '../../lib/days.ts'
import { queryKeys } from '../../lib/query-keys.ts'
import { toastPromise } from '../../lib/toast.ts'
import { RouteLoading } from '../layout/route-loading.tsx'

const LAST_DAYS = 7

/**
 * "Min dag": the one page a person (borger) sees. A greeting, and only what their features allow:
 * today's question, their own diary (typed and/or dictated), and their own last seven days.
 */
export function Component() {
  const { user } = useSnapshot(session)
  const id = user?.id ?? ''
  const person = useQuery({ queryKey: queryKeys.person(id), queryFn: () => getPerson(id), enabled: id !== '' })
  if (person.isError || (person.data === null && !person.isPending))
    return <LoadFailed onRetry={() => void person.refetch()} />
  if (person.data == null) return <RouteLoading />
  return <MyDay person={person.data} />
}

function MyDay({ person }: { person: Person }) {
  const day = today()
  const locationId = person.locationId ?? ''
  const shared = useQuery({
    queryKey: queryKeys.sharedFeatures(locationId),
    queryFn: () => getSharedFeatures(locationId),
    enabled: locationId !== '',
  })
  if (locationId !== '' && shared.data === undefined)
    return shared.isError ? <LoadFailed onRetry={() => void shared.refetch()} /> : <RouteLoading />
  const abilities = personAbilities(person, shared.data ?? DEFAULT_LOCATION_FEATURES)
  const nothing = !abilities.answers && !abilities.freeText && !abilities.speechToText
  return (
    <Page title={da.me.title}>
      <div className="me">
        <div className="me__greeting">
          <PersonAvatar person={person} size="large" />
          <div>
            <p className="me__hello">{da.me.greeting(person.firstName)}</p>
            <p className="me__date">{formatDay(day)}</p>
          </div>
        </div>
        {nothing && <p className="me__card">{da.me.noFeatures}</p>}
        {abilities.answers && <TodaysQuestion person={person} day={day} />}
        {(abilities.freeText || abilities.speechToText) && (
          <MyDiary
            person={person}
            day={day}
            canType={abilities.freeText}
            canDictate={abilities.speechToText}
            cloudAllowed={abilities.cloudDictation}
          />
        )}
        <LastDays person={person} day={day} />
        <p>
          <Link to="/password">{da.passwords.menuItem}</Link>
        </p>
      </div>
    </Page>
  )
}

function TodaysQuestion({ person, day }: { person: Person; day: string }) {
  const queryClient = useQueryClient()
  const locationId = person.locationId ?? ''
  // A person cannot read their location's document, so the location's options come in their default order.
  const options = useQuery({
    queryKey: queryKeys.answerOptions(person.id, locationId),
    queryFn: () => getAnswerOptions(person, { id: locationId, answerOptions: [] }),
  })
  const todays = useQuery({
    queryKey: queryKeys.personRegistrations(person.id, day, day),
    queryFn: () => getPersonRegistrations(person.id, day, day),
  })
  const mine = todays.data?.items.filter((registration) => registration.createdBy === person.id).at(-1) ?? null
  const [chosen, setChosen] = useState<string | null>(null)
  const [comment, setComment] = useState<string | null>(null)
  const ids = { question: useId(), comment: useId() }
  const save = useMutation({
    mutationFn: ({ answer, note }: { answer: Answer; note: string }) =>
      toastPromise<unknown>(
        mine === null
          ? createRegistration({
              personId: person.id,
              locationId,
              day,
              answer,
              comment: note,
              createdBy: person.id,
              createdByName: personName(person),
            })
          : updateRegistration({
              personId: person.id,
              registrationId: mine.id,
              answer,
              comment: note,
              updatedBy: person.id,
            }),
        { pending: da.registration.pending, resolved: da.registration.ok, rejected: da.registration.fail },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.registrations }),
    onError: (error) => console.warn('an answer could not be saved', (error as Error).name),
  })
  if (options.data === undefined || todays.data === undefined) return <RouteLoading />
  const selected = chosen ?? mine?.answerId ?? null
  const text = comment ?? mine?.comment ?? ''
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault()
    const answer = options.data.find((option) => option.id === selected)
    if (answer !== undefined) save.mutate({ answer, note: text.slice(0, REGISTRATION_COMMENT_MAX_LENGTH) })
  }
  return (
    <section className="me__card" aria-labelledby={ids.question}>
      <h2 id={ids.question}>{da.me.question}</h2>
      {mine !== null && (
        <p className="me__answered">
          {da.me.answered(mine.text)} <span className="muted">{da.me.changeHint}</span>
        </p>
      )}
      {options.data.length === 0 ? (
        <p>{da.me.noOptions}</p>
      ) : (
        <form onSubmit={handleSubmit} className="form">
          <fieldset className="me__choices">
            <legend className="visually-hidden">{da.me.question}</legend>
            {options.data.map((option) => (
              <label key={option.id} className="me__choice">
                <input
                  type="radio"
                  name="todays-answer"
                  checked={selected === option.id}
                  onChange={() => setChosen(option.id)}
                />
                <span>{option.text}</span>
              </label>
            ))}
          </fieldset>
          <div className="field">
            <label htmlFor={ids.comment}>{da.me.comment}</label>
            <textarea
              id={ids.comment}
              rows={2}
              maxLength={REGISTRATION_COMMENT_MAX_LENGTH}
              value={text}
              onChange={(event) => setComment(event.target.value)}
            />
          </div>
          <button
            type="submit"
            className="button button--primary me__save"
            disabled={selected === null || save.isPending}
          >
            {da.me.saveAnswer}
          </button>
        </form>
      )}
    </section>
  )
}

function MyDiary({
  person,
  day,
  canType,
  canDictate,
  cloudAllowed,
}: {
  person: Person
  day: string
  cloudAllowed: boolean
  canType: boolean
  canDictate: boolean
}) {
  const queryClient = useQueryClient()
  const [text, setText] = useState('')
  const [dictated, setDictated] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const area = useRef<HTMLTextAreaElement>(null)
  const ids = { title: useId(), text: useId(), error: useId(), dictation: useId() }
  // The same module and rules as the staff's diary (ADR 0007): on the device, the cloud only where allowed.
  const engine = useMemo(() => webSpeechEngine({ cloudAllowed }), [cloudAllowed])
  const onFinal = useCallback((words: string) => {
    setText((current) => insertAt(current, area.current?.selectionStart ?? current.length, words).text)
    setDictated(true)
  }, [])
  const dictation = useDictation(engine, onFinal)
  const save = useMutation({
    mutationFn: (entry: string) =>
      toastPromise(
        createNote({
          personId: person.id,
          locationId: person.locationId ?? '',
          day,
          text: entry,
          source: dictated ? 'speech' : 'keyboard',
          createdBy: person.id,
          authorName: personName(person),
        }),
        { pending: da.notes.pending, resolved: da.notes.ok, rejected: da.notes.fail },
      ),
    onSuccess: () => {
      setText('')
      setDictated(false)
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.notes }),
    onError: (failure) => console.warn('a diary entry could not be saved', (failure as Error).name),
  })
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault()
    const parsed = NoteTextSchema.safeParse(text)
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? da.notes.textRequired)
    // Without free text, an entry is only one that was dictated (the rules check the same).
    if (!canType && !dictated) return setError(da.me.speechOnly)
    setError(null)
    dictation.stop()
    save.mutate(parsed.data)
  }
  return (
    <section className="me__card" aria-labelledby={ids.title}>
      <h2 id={ids.title}>{da.me.diary}</h2>
      <form onSubmit={handleSubmit} className="form" noValidate>
        <div className="field">
          <label htmlFor={ids.text}>{da.me.diaryText}</label>
          <textarea
            id={ids.text}
            ref={area}
            rows={5}
            value={text}
            readOnly={!canType}
            aria-invalid={error !== null}
            aria-describedby={
              [error === null ? null : ids.error, canDictate ? ids.dictation : null].filter(Boolean).join(' ') ||
              undefined
            }
            onChange={(event) => setText(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape' && dictation.isListening) dictation.stop()
            }}
          />
          {error !== null && (
            <p id={ids.error} className="field__error" role="alert">
              {error}
            </p>
          )}
        </div>
        {canDictate && (
          <DictationButton dictation={dictation} locationId={person.locationId ?? ''} hintId={ids.dictation} />
        )}
        <button type="submit" className="button button--primary me__save" disabled={save.isPending}>
          {da.me.saveDiary}
        </button>
      </form>
    </section>
  )
}

type DayEntry =
  | { kind: 'registration'; at: string; item: StoredRegistration }
  | { kind: 'note'; at: string; item: StoredNote }

function LastDays({ person, day }: { person: Person; day: string }) {
  const from = addDays(day, -(LAST_DAYS - 1))
  const registrations = useQuery({
    queryKey: queryKeys.personRegistrations(person.id, from, day),
    queryFn: () => getPersonRegistrations(person.id, from, day),
  })
  const notes = useQuery({
    queryKey: queryKeys.personNotes(person.id, from, day),
    queryFn: () => getPersonNotes(person.id, from, day),
  })
  const id = useId()
  if (registrations.data === undefined || notes.data === undefined) return <RouteLoading />
  const byDay = new Map<string, DayEntry[]>()
  const add = (entry: DayEntry, entryDay: string) => byDay.set(entryDay, [...(byDay.get(entryDay) ?? []), entry])
  for (const item of registrations.data.items) add({ kind: 'registration', at: item.createdAt, item }, item.day)
  for (const item of notes.data.items) add({ kind: 'note', at: item.createdAt, item }, item.day)
  const days = [...byDay.keys()].sort().reverse()
  const by = (createdBy: string) => (createdBy === person.id ? da.me.byYou : da.me.byStaff)
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
                      </span>
                    </p>
                  ) : entry.item.deleted !== undefined ? (
                    <p className="muted">{da.me.deletedNote}</p>
                  ) : (
                    <>
                      <p className="note__text">{entry.item.text}</p>
                      <p className="muted">
                        {da.notes.at(formatTime(entry.at))} {by(entry.item.createdBy)}
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

function LoadFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <Page title={da.me.title}>
      <div className="notice notice--error" role="alert">
        <p>{da.me.loadFailed}</p>
        <button type="button" className="button button--secondary" onClick={onRetry}>
          {da.me.retry}
        </button>
      </div>
    </Page>
  )
}
