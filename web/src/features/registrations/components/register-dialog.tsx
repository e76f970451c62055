import {
  type Answer,
  REGISTRATION_COMMENT_MAX_LENGTH,
  type RegistrationForm,
  RegistrationFormSchema,
} from '@bosted/domain/answer'
import { da } from '@bosted/domain/messages/da'
import { zodResolver } from '@hookform/resolvers/zod'
import { useEffect, useId } from 'react'
import { useForm } from 'react-hook-form'
import { Dialog } from '../../../components/ui/dialog.tsx'
import { Field } from '../../../components/ui/field.tsx'
import { QueryState } from '../../../components/ui/query-state.tsx'

export type RegisterChoice = { answer: Answer; comment: string }

type Props = {
  title: string
  isOpen: boolean
  /** undefined while loading; null when they could not be loaded. */
  options: Answer[] | undefined | null
  initial?: { answerId: string; comment: string } | undefined
  onRetryOptions: () => void
  onSubmit: (choice: RegisterChoice) => void
  onClose: () => void
}

/**
 * Choose one of the person's answer options, with an optional comment (react-hook-form with the
 * domain's RegistrationFormSchema). Data arrives through props; the owner writes.
 */
export function RegisterDialog({ title, isOpen, options, initial, onRetryOptions, onSubmit, onClose }: Props) {
  const form = useForm<RegistrationForm>({
    resolver: zodResolver(RegistrationFormSchema),
    defaultValues: { answerId: '', comment: '' },
  })
  const answerErrorId = useId()
  const answerError = form.formState.errors.answerId?.message
  const initialAnswer = initial?.answerId ?? ''
  const initialComment = initial?.comment ?? ''

  useEffect(() => {
    if (isOpen) form.reset({ answerId: initialAnswer, comment: initialComment })
  }, [isOpen, initialAnswer, initialComment, form])

  const handleSubmit = form.handleSubmit(({ answerId, comment }) => {
    const answer = options?.find((option) => option.id === answerId)
    if (answer === undefined) return form.setError('answerId', { message: da.registration.answerRequired })
    onSubmit({ answer, comment })
  })

  return (
    <Dialog title={title} isOpen={isOpen} onClose={onClose}>
      <form className="register-form" onSubmit={handleSubmit} noValidate>
        <QueryState
          query={{ data: options ?? undefined, isError: options === null, error: null, refetch: onRetryOptions }}
          errorMessage={da.registration.optionsFailed}
          loading={
            <p role="status" className="muted">
              {da.shell.loading}
            </p>
          }
          isEmpty={(list) => list.length === 0}
          empty={<p>{da.registration.noOptions}</p>}
        >
          {(list) => (
            <fieldset className="register-form__options" aria-describedby={answerError ? answerErrorId : undefined}>
              <legend>{da.registration.answer}</legend>
              {list.map((option) => (
                <label key={`${option.entity}-${option.id}`} className="choice">
                  <input
                    type="radio"
                    value={option.id}
                    aria-invalid={Boolean(answerError)}
                    {...form.register('answerId')}
                  />
                  <span>{option.text}</span>
                  <span className="choice__value">{option.value}</span>
                </label>
              ))}
              {answerError && (
                <p id={answerErrorId} className="field__error" role="alert">
                  {answerError}
                </p>
              )}
            </fieldset>
          )}
        </QueryState>
        <Field label={da.registration.comment} error={form.formState.errors.comment?.message}>
          {(control) => (
            <textarea {...control} rows={3} maxLength={REGISTRATION_COMMENT_MAX_LENGTH} {...form.register('comment')} />
          )}
        </Field>
        <div className="dialog__actions">
          <button type="button" className="button button--secondary" onClick={onClose}>
            {da.registration.cancel}
          </button>
          <button type="submit" className="button button--action" disabled={!options || options.length === 0}>
            {da.registration.save}
          </button>
        </div>
      </form>
    </Dialog>
  )
}
