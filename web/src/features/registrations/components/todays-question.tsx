import { type Answer, REGISTRATION_COMMENT_MAX_LENGTH, RegistrationFormSchema } from '@bosted/domain/answer'
import { da } from '@bosted/domain/messages/da'
import { registrationsPath } from '@bosted/domain/paths'
import type { Person } from '@bosted/domain/person'
import { type FormEvent, useId, useState } from 'react'
import { Field } from '../../../components/ui/field.tsx'
import { Loading } from '../../../components/ui/loading.tsx'
import { WriteStatus } from '../../../components/ui/write-status.tsx'
import { usePersonRegistrations } from '../api/get-person-registrations.ts'
import { useSaveOwnAnswer } from '../api/save-own-answer.ts'

type Props = {
  person: Person
  /** How the person is named on their registration. */
  name: string
  day: string
  /** The person's answer options (the answers feature's); undefined while they load. */
  options: Answer[] | undefined
}

/**
 * "Min dag": today's question, answered (or the answer changed) by the person themselves; the choice and
 * comment parsed with the domain's RegistrationFormSchema, as the register dialog does. Not
 * react-hook-form: its chunk (15.3 KB gzip with the resolvers) would more than double /me's route code
 * (12.6 KB, measured 2026-11-26); the register dialog loads it on the first "Registrer" instead.
 */
export function TodaysQuestion({ person, name, day, options }: Props) {
  const todays = usePersonRegistrations(person.id, day, day)
  const mine = todays.data?.items.filter((registration) => registration.createdBy === person.id).at(-1) ?? null
  const [chosen, setChosen] = useState<string | null>(null)
  const [comment, setComment] = useState<string | null>(null)
  const questionId = useId()
  const save = useSaveOwnAnswer()
  if (options === undefined || todays.data === undefined) return <Loading />
  const selected = chosen ?? mine?.answerId ?? null
  const text = comment ?? mine?.comment ?? ''
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault()
    const parsed = RegistrationFormSchema.safeParse({ answerId: selected, comment: text })
    if (!parsed.success) return
    const answer = options.find((option) => option.id === parsed.data.answerId)
    if (answer === undefined) return
    save.mutate({
      person: { id: person.id, locationId: person.locationId ?? '', name },
      day,
      answer,
      comment: parsed.data.comment,
      existing: mine,
    })
  }
  return (
    <section className="me__card" aria-labelledby={questionId}>
      <h2 id={questionId}>{da.me.question}</h2>
      {mine !== null && (
        <p className="me__answered">
          {da.me.answered(mine.text)} <WriteStatus path={`${registrationsPath(person.id)}/${mine.id}`} />{' '}
          <span className="muted">{da.me.changeHint}</span>
        </p>
      )}
      {options.length === 0 ? (
        <p>{da.me.noOptions}</p>
      ) : (
        <form onSubmit={handleSubmit} className="form">
          <fieldset className="me__choices">
            <legend className="visually-hidden">{da.me.question}</legend>
            {options.map((option) => (
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
          <Field label={da.me.comment}>
            {(control) => (
              <textarea
                {...control}
                rows={2}
                maxLength={REGISTRATION_COMMENT_MAX_LENGTH}
                value={text}
                onChange={(event) => setComment(event.target.value)}
              />
            )}
          </Field>
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
