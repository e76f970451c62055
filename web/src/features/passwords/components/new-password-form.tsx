import type { PasswordPolicyResponse } from '@bosted/domain/api'
import { da } from '@bosted/domain/messages/da'
import { type FormEvent, useState } from 'react'
import { Field } from '../../../components/ui/field.tsx'
import { ApiError } from '../../../lib/api-client.ts'
import { newPasswordProblem, passwordHint } from '../password-rules.ts'

type Errors = { current?: string; next?: string; repeat?: string; form?: string }

type Props = {
  policy: PasswordPolicyResponse | null
  /** The account's email, for the policy's "not the email" (null when not known here). */
  email: string | null
  /** Ask for the current password too (changing one's own; not with a reset link). */
  askCurrent: boolean
  submitLabel: string
  onSubmit: (values: { current: string; next: string }) => Promise<void>
}

/** The api's field messages where they belong; anything else under the form. */
function apiErrors(error: unknown): Errors {
  if (error instanceof ApiError) {
    if (error.message === da.passwords.wrongCurrent) return { current: error.message }
    if (error.code === 'invalid_request') return { next: error.message }
    return { form: error.message }
  }
  if (error instanceof TypeError) return { form: da.login.network }
  return { form: da.api.internal }
}

/** Current (optional), new and repeated password, checked against the policy before the api is asked. */
export function NewPasswordForm({ policy, email, askCurrent, submitLabel, onSubmit }: Props) {
  const [errors, setErrors] = useState<Errors>({})
  const [isSubmitting, setIsSubmitting] = useState(false)
  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const data = new FormData(event.currentTarget)
    const current = String(data.get('current') ?? '')
    const next = String(data.get('next') ?? '')
    const repeat = String(data.get('repeat') ?? '')
    const found: Errors = {}
    if (askCurrent && current === '') found.current = da.validation.passwordRequired
    const problem = next === '' ? da.validation.passwordRequired : newPasswordProblem(policy, next, email)
    if (problem !== null) found.next = problem
    else if (askCurrent && next === current) found.next = da.passwords.sameAsCurrent
    if (found.next === undefined && repeat !== next) found.repeat = da.passwords.mismatch
    setErrors(found)
    if (Object.keys(found).length > 0) return
    setIsSubmitting(true)
    try {
      await onSubmit({ current, next })
    } catch (error) {
      setErrors(apiErrors(error))
    } finally {
      setIsSubmitting(false)
    }
  }
  const hint = passwordHint(policy)
  return (
    <form className="form" noValidate onSubmit={(event) => void handleSubmit(event)}>
      {askCurrent && (
        <Field label={da.passwords.current} error={errors.current}>
          {(control) => <input {...control} name="current" type="password" autoComplete="current-password" />}
        </Field>
      )}
      <Field label={da.passwords.next} error={errors.next} {...(hint === undefined ? {} : { hint })}>
        {(control) => <input {...control} name="next" type="password" autoComplete="new-password" />}
      </Field>
      <Field label={da.passwords.repeat} error={errors.repeat}>
        {(control) => <input {...control} name="repeat" type="password" autoComplete="new-password" />}
      </Field>
      <div role="alert" className="form__error">
        {errors.form}
      </div>
      <button type="submit" className="button button--primary" disabled={isSubmitting}>
        {isSubmitting ? da.passwords.submitting : submitLabel}
      </button>
    </form>
  )
}
