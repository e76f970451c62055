import { type Answer, REGISTRATION_COMMENT_MAX_LENGTH } from '@bosted/domain/answer'
import { da } from '@bosted/domain/messages/da'
import type { Person } from '@bosted/domain/person'
import { type FormEvent, useId, useState } from 'react'
import { Loading } from '../../../components/ui/loading.tsx'
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

/** "Min dag": today's question, answered (or the answer changed) by the person themselves. */
export function TodaysQuestion({ person, name, day, options }: Props) {
  const todays = usePersonRegistrations(person.id, day, day)
  const mine = todays.data?.items.filter((registration) => registration.createdBy === person.id).at(-1) ?? null
  const [chosen, setChosen] = useState<string | null>(null)
  const [comment, setComment] = useState<string | null>(null)
  const ids = { question: useId(), comment: useId() }
  const save = useSaveOwnAnswer()
  if (options === undefined || todays.data === undefined) return <Loading />
  const selected = chosen ?? mine?.answerId ?? null
  const text = comment ?? mine?.comment ?? ''
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault()
    const answer = options.find((option) => option.id === selected)
    if (answer === undefined) return
    save.mutate({
      person: { id: person.id, locationId: person.locationId ?? '', name },
      day,
      answer,
      comment: text.slice(0, REGISTRATION_COMMENT_MAX_LENGTH),
      existing: mine,
    })
  }
  return (
    <section className="me__card" aria-labelledby={ids.question}>
      <h2 id={ids.question}>{da.me.question}</h2>
      {mine !== null && (
        <p className="me__answered">
          {da.me.answered(mine.text)} <span className="muted">{da.me.changeHint}</span>
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
