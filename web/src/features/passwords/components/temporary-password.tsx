import { da } from '@bosted/domain/messages/da'
import { type FormEvent, useId, useState } from 'react'
import { toastPromise } from '../../../lib/toast.ts'
import { setTemporaryPassword } from '../api/set-temporary-password.ts'
import { newPasswordProblem, passwordHint, usePasswordPolicy } from '../password-rules.ts'

type Props = { userId: string; name: string; email: string | null }

/**
 * Midlertidig adgangskode: an admin or superuser gives someone they manage a password to sign in
 * with once; that person must choose their own at once, and is signed out everywhere else.
 */
export function TemporaryPassword({ userId, name, email }: Props) {
  const policy = usePasswordPolicy()
  const [error, setError] = useState<string | null>(null)
  const [isSubmitting, setIsSubmitting] = useState(false)
  const id = useId()
  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const formElement = event.currentTarget
    const password = String(new FormData(formElement).get('temporaryPassword') ?? '')
    const problem = password === '' ? da.validation.passwordRequired : newPasswordProblem(policy, password, email)
    setError(problem)
    if (problem !== null) return
    setIsSubmitting(true)
    try {
      await toastPromise(setTemporaryPassword(userId, password), {
        pending: da.passwords.temporaryPending,
        resolved: da.passwords.temporaryOk,
        rejected: da.passwords.temporaryFail,
      })
      formElement.reset()
    } catch (failure) {
      setError(failure instanceof Error && failure.message !== '' ? failure.message : da.passwords.temporaryFail)
    } finally {
      setIsSubmitting(false)
    }
  }
  const hint = passwordHint(policy)
  return (
    <form className="temporary-password" noValidate onSubmit={(event) => void handleSubmit(event)}>
      <h3>{da.passwords.temporaryTitle}</h3>
      <p>{da.passwords.temporaryIntro(name)}</p>
      <div className="field">
        <label htmlFor={`${id}-password`}>{da.passwords.temporaryField}</label>
        {hint !== undefined && (
          <p id={`${id}-hint`} className="field__hint">
            {hint}
          </p>
        )}
        <input
          id={`${id}-password`}
          name="temporaryPassword"
          type="text"
          autoComplete="off"
          aria-invalid={error !== null}
          aria-describedby={
            [hint === undefined ? '' : `${id}-hint`, error === null ? '' : `${id}-error`].join(' ').trim() || undefined
          }
        />
        {error !== null && (
          <p id={`${id}-error`} className="field__error" role="alert">
            {error}
          </p>
        )}
      </div>
      <button type="submit" className="button button--secondary" disabled={isSubmitting}>
        {da.passwords.temporarySubmit}
      </button>
    </form>
  )
}
