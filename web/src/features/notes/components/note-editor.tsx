import { isCareDayAllowed, NOTE_MAX_LENGTH, NoteTextSchema } from '@bosted/domain/answer'
import { da } from '@bosted/domain/messages/da'
import { type FormEvent, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react'
import { Field } from '../../../components/ui/field.tsx'
import { LeaveGuard } from '../../../components/ui/leave-guard.tsx'
import { isDay, today } from '../../../lib/days.ts'
import { type DictationEngine, insertAt } from '../dictation/dictation.ts'
import { DictationButton } from '../dictation/dictation-button.tsx'
import { useDictation } from '../dictation/use-dictation.ts'
import { clearNoteDraft, lastDraftPerson, loadNoteDraft, saveNoteDraft } from '../note-draft.ts'

/** The counter shows from this many characters on. */
const COUNTER_FROM = NOTE_MAX_LENGTH - 500

export type NoteInput = { personId: string; day: string; text: string; dictated: boolean }
/** A person an entry may be written for, as the editor names them. */
export type PersonChoice = { id: string; name: string }

type Props = {
  userId: string
  /** The persons an entry may be written for; one person: that person is fixed (their own diary page). */
  persons: readonly PersonChoice[]
  locationId: string
  engine: DictationEngine
  onSave: (input: NoteInput) => Promise<unknown>
}

/**
 * Writing a diary entry: person, day (today by default; earlier days are backdated), the text with a
 * counter near the limit and dictation. The draft survives a reload; leaving with text asks first.
 * Field + the domain's NoteTextSchema, not react-hook-form: its chunk (15.3 KB gzip with the resolvers)
 * would take /notes' route code from 16.9 KB past its 25 KB budget (measured 2026-11-26).
 */
export function NoteEditor({ userId, persons, locationId, engine, onSave }: Props) {
  const fixed = persons.length === 1 ? (persons[0] as PersonChoice) : null
  const initialPerson = fixed?.id ?? pickPerson(persons, lastDraftPerson(userId))
  const [personId, setPersonId] = useState(initialPerson)
  const initial = useMemo(() => loadNoteDraft(userId, initialPerson), [userId, initialPerson])
  const [text, setText] = useState(initial?.text ?? '')
  const [day, setDay] = useState(initial !== null && isDay(initial.day) ? initial.day : today())
  const [dictated, setDictated] = useState(initial?.dictated ?? false)
  // Every field's message at once (issue 32), each under its own field.
  const [errors, setErrors] = useState<{ person?: string; day?: string; text?: string }>({})
  // The day's and the text's messages are shown below the text (the day's first: it is what to fix).
  const error = errors.day ?? errors.text ?? null
  const [isSaving, setSaving] = useState(false)
  const textArea = useRef<HTMLTextAreaElement>(null)
  const cursor = useRef<number | null>(null)
  const personSelect = useRef<HTMLSelectElement>(null)
  const dayInput = useRef<HTMLInputElement>(null)
  const ids = { count: useId(), dictation: useId() }

  const onFinal = useCallback((words: string) => {
    const area = textArea.current
    setText((current) => {
      const at = cursor.current ?? area?.selectionStart ?? current.length
      const next = insertAt(current, Math.min(at, current.length), words)
      cursor.current = next.cursor
      return next.text
    })
    setDictated(true)
  }, [])
  const dictation = useDictation(engine, onFinal)
  // The draft follows every change, typed or dictated; an empty text removes it.
  const latest = useRef(text)
  useEffect(() => {
    latest.current = text
    if (personId !== '') saveNoteDraft(userId, personId, { text, day, dictated })
  }, [userId, personId, text, day, dictated])

  const choosePerson = (id: string) => {
    setPersonId(id)
    const draft = loadNoteDraft(userId, id)
    setText(draft?.text ?? '')
    setDictated(draft?.dictated ?? false)
    if (draft !== null && isDay(draft.day)) setDay(draft.day)
    setErrors({})
  }

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault()
    const parsed = NoteTextSchema.safeParse(text)
    const found = {
      ...(personId === '' ? { person: da.notes.personRequired } : {}),
      ...(isCareDayAllowed(day, new Date()) ? {} : { day: da.notes.dayInFuture }),
      ...(parsed.success ? {} : { text: parsed.error.issues[0]?.message ?? da.notes.textRequired }),
    }
    setErrors(found)
    if (!parsed.success || found.person !== undefined || found.day !== undefined) {
      if (found.person !== undefined) personSelect.current?.focus()
      else if (found.day !== undefined) dayInput.current?.focus()
      else textArea.current?.focus()
      return
    }
    dictation.stop()
    setSaving(true)
    try {
      await onSave({ personId, day, text: parsed.data, dictated })
      clearNoteDraft(userId, personId)
      latest.current = ''
      setText('')
      setDictated(false)
      setErrors({})
    } catch {
      // The promise toast has told the user; the text stays for another try.
    } finally {
      setSaving(false)
    }
  }

  const length = text.trim().length
  const hasCounter = length >= COUNTER_FROM
  return (
    <form className="form note-editor" onSubmit={handleSubmit} noValidate aria-label={da.notes.write}>
      <div className="note-editor__row">
        {fixed === null && (
          <Field label={da.notes.person} error={errors.person}>
            {(control) => (
              <select
                {...control}
                ref={personSelect}
                value={personId}
                onChange={(event) => choosePerson(event.target.value)}
              >
                <option value="">{da.notes.choosePerson}</option>
                {persons.map((person) => (
                  <option key={person.id} value={person.id}>
                    {person.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        <Field label={da.notes.day}>
          {(control) => (
            <input
              {...control}
              ref={dayInput}
              type="date"
              value={day}
              max={today()}
              onChange={(event) => {
                if (isDay(event.target.value)) setDay(event.target.value)
              }}
            />
          )}
        </Field>
      </div>
      <Field label={da.notes.text} error={error ?? undefined} describedBy={[hasCounter && ids.count, ids.dictation]}>
        {(control) => (
          <>
            <textarea
              {...control}
              ref={textArea}
              rows={6}
              value={text}
              onChange={(event) => {
                cursor.current = null
                setText(event.target.value)
                if (error !== null) setErrors(({ text: _, ...rest }) => rest)
              }}
              onSelect={() => {
                cursor.current = null
              }}
              onKeyDown={(event) => {
                if (event.key === 'Escape' && dictation.isListening) {
                  event.preventDefault()
                  dictation.stop()
                }
              }}
            />
            {hasCounter && (
              <p id={ids.count} className={`field__hint${length > NOTE_MAX_LENGTH ? ' field__hint--over' : ''}`}>
                {da.notes.charactersLeft(length, NOTE_MAX_LENGTH)}
              </p>
            )}
          </>
        )}
      </Field>
      <DictationButton dictation={dictation} locationId={locationId} hintId={ids.dictation} />
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={isSaving}>
          {da.notes.save}
        </button>
      </div>
      <LeaveGuard
        shouldWarn={() => latest.current.trim() !== ''}
        within={typeof window === 'undefined' ? '' : window.location.pathname}
        message={da.notes.leave}
      />
    </form>
  )
}

function pickPerson(persons: readonly PersonChoice[], last: string | null): string {
  return last !== null && persons.some((person) => person.id === last) ? last : ''
}
