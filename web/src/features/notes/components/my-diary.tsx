import { NoteTextSchema } from '@bosted/domain/answer'
import { da } from '@bosted/domain/messages/da'
import type { Person } from '@bosted/domain/person'
import { type FormEvent, useCallback, useId, useMemo, useRef, useState } from 'react'
import { Field } from '../../../components/ui/field.tsx'
import { useCreateNote } from '../api/create-note.ts'
import { insertAt, webSpeechEngine } from '../dictation/dictation.ts'
import { DictationButton } from '../dictation/dictation-button.tsx'
import { useDictation } from '../dictation/use-dictation.ts'

type Props = {
  person: Person
  /** How the person is named as the entry's author. */
  name: string
  day: string
  canType: boolean
  canDictate: boolean
  cloudAllowed: boolean
}

/**
 * "Min dag": the person's own diary entry, typed and/or dictated as their features allow. Field + the
 * domain's NoteTextSchema, not react-hook-form, whose chunk (15.3 KB gzip) would more than double /me's route code.
 */
export function MyDiary({ person, name, day, canType, canDictate, cloudAllowed }: Props) {
  const [text, setText] = useState('')
  const [dictated, setDictated] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const area = useRef<HTMLTextAreaElement>(null)
  const ids = { title: useId(), dictation: useId() }
  // The same module and rules as the staff's diary (ADR 0007): on the device, the cloud only where allowed.
  const engine = useMemo(() => webSpeechEngine({ cloudAllowed }), [cloudAllowed])
  const onFinal = useCallback((words: string) => {
    setText((current) => insertAt(current, area.current?.selectionStart ?? current.length, words).text)
    setDictated(true)
  }, [])
  const dictation = useDictation(engine, onFinal)
  const save = useCreateNote()
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault()
    const parsed = NoteTextSchema.safeParse(text)
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? da.notes.textRequired)
    // Without free text, an entry is only one that was dictated (the rules check the same).
    if (!canType && !dictated) return setError(da.me.speechOnly)
    setError(null)
    dictation.stop()
    save.mutate(
      {
        personId: person.id,
        locationId: person.locationId ?? '',
        day,
        text: parsed.data,
        source: dictated ? 'speech' : 'keyboard',
        createdBy: person.id,
        authorName: name,
      },
      {
        onSuccess: () => {
          setText('')
          setDictated(false)
        },
      },
    )
  }
  return (
    <section className="me__card" aria-labelledby={ids.title}>
      <h2 id={ids.title}>{da.me.diary}</h2>
      <form onSubmit={handleSubmit} className="form" noValidate>
        <Field label={da.me.diaryText} error={error ?? undefined} describedBy={[canDictate && ids.dictation]}>
          {(control) => (
            <textarea
              {...control}
              ref={area}
              rows={5}
              value={text}
              readOnly={!canType}
              onChange={(event) => setText(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Escape' && dictation.isListening) dictation.stop()
              }}
            />
          )}
        </Field>
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
