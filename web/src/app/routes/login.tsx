import { da } from '@bosted/domain/messages/da'
import { type FormEvent, useEffect, useId, useState } from 'react'
import { useNavigate } from 'react-router-dom'
import { ForgotPassword } from '../../features/passwords/components/forgot-password.tsx'
import { signIn, signInErrorMessage } from '../../features/session/api/sign-in.ts'
import { markSessionFresh, session } from '../../features/session/session-store.ts'
import { getRuntimeConfig } from '../../lib/config.ts'
import { endSession } from '../session.ts'

type Errors = { email?: string; password?: string; form?: string }

export function validateLogin(email: string, password: string): Errors {
  const errors: Errors = {}
  if (email.trim() === '') errors.email = da.validation.emailRequired
  if (password === '') errors.password = da.validation.passwordRequired
  return errors
}

/** /login: email and password, no header and no vertical padding (SPEC §2). */
export function Component() {
  const isConfigured = getRuntimeConfig().firebase !== null
  const [errors, setErrors] = useState<Errors>({})
  const [isSubmitting, setIsSubmitting] = useState(false)
  const navigate = useNavigate()
  const id = useId()

  useEffect(() => {
    document.title = `${da.login.title} · ${da.shell.appName}`
  }, [])

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const email = String(form.get('email') ?? '')
    const password = String(form.get('password') ?? '')
    const found = validateLogin(email, password)
    setErrors(found)
    if (Object.keys(found).length > 0) return
    setIsSubmitting(true)
    try {
      const userId = await signIn(email, password)
      // A different user replaces whatever user this browser remembered.
      if (session.user !== null && session.user.id !== userId) endSession()
      markSessionFresh()
      await navigate('/daily', { replace: true })
    } catch (error) {
      setErrors({ form: signInErrorMessage(error) })
      setIsSubmitting(false)
    }
  }

  return (
    <main className="login">
      <div className="login__card">
        <p className="login__brand">{da.shell.appName}</p>
        <h1>{da.login.title}</h1>
        <p className="login__intro">{da.login.intro}</p>
        {!isConfigured && (
          <p className="login__alert" role="alert">
            {da.login.configMissing}
          </p>
        )}
        <form noValidate onSubmit={(event) => void handleSubmit(event)} aria-describedby={`${id}-form-error`}>
          <div className="field">
            <label htmlFor={`${id}-email`}>{da.login.email}</label>
            <input
              id={`${id}-email`}
              name="email"
              type="email"
              autoComplete="username"
              inputMode="email"
              disabled={!isConfigured}
              aria-invalid={errors.email !== undefined}
              aria-describedby={errors.email ? `${id}-email-error` : undefined}
            />
            {errors.email && (
              <p className="field__error" id={`${id}-email-error`}>
                {errors.email}
              </p>
            )}
          </div>
          <div className="field">
            <label htmlFor={`${id}-password`}>{da.login.password}</label>
            <input
              id={`${id}-password`}
              name="password"
              type="password"
              autoComplete="current-password"
              disabled={!isConfigured}
              aria-invalid={errors.password !== undefined}
              aria-describedby={errors.password ? `${id}-password-error` : undefined}
            />
            {errors.password && (
              <p className="field__error" id={`${id}-password-error`}>
                {errors.password}
              </p>
            )}
          </div>
          <div id={`${id}-form-error`} role="alert" className="login__error">
            {errors.form}
          </div>
          <button type="submit" className="button button--primary" disabled={!isConfigured || isSubmitting}>
            {isSubmitting ? da.login.submitting : da.login.submit}
          </button>
        </form>
        <ForgotPassword />
      </div>
    </main>
  )
}
