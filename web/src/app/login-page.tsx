import { da } from '@bosted/domain/messages/da'
import { type FormEvent, useEffect, useId, useState } from 'react'
import { ForgotPassword } from '../features/passwords/components/forgot-password.tsx'
import { getRuntimeConfig } from '../lib/config.ts'

type Errors = { email?: string; password?: string; form?: string }

export function validateLogin(email: string, password: string): Errors {
  const errors: Errors = {}
  if (email.trim() === '') errors.email = da.validation.emailRequired
  if (password === '') errors.password = da.validation.passwordRequired
  return errors
}

/**
 * Firebase Auth and the sign-in call: not needed to show the form, so not in /login's first load
 * (issue 34: ≤ 100 KB gzip JS before the form works). Fetched once the form shows (when the browser
 * is idle, or at the first focus in the form, whichever comes first), awaited on submit.
 */
const loadSignIn = () => import('../features/session/api/sign-in.ts')

type Props = {
  /** Fetches ahead, once the form shows (when the browser is idle): what a sign-in leads to. */
  preload?: () => void
  /** Called as a valid form is submitted: the landing page's code and data can start loading. */
  onSubmitted: () => void
  /** The sign-in succeeded (the session cookie is set): start the session and show the landing page. */
  onSignedIn: (userId: string) => Promise<void>
}

/**
 * /login: email and password, no header and no vertical padding (REQ-ROUTE-4). Needs no router: the app
 * shows it alone on a first visit (main.tsx) and loads the router while it is filled in; the /login
 * route (routes/login.tsx) shows it inside the app.
 */
export function LoginPage({ preload, onSubmitted, onSignedIn }: Props) {
  const isConfigured = getRuntimeConfig().firebase !== null
  const [errors, setErrors] = useState<Errors>({})
  const [isSubmitting, setIsSubmitting] = useState(false)
  const id = useId()

  useEffect(() => {
    document.title = `${da.login.title} · ${da.shell.appName}`
  }, [])

  useEffect(() => {
    if (!isConfigured) return
    const load = () => {
      void loadSignIn().catch(() => {})
      preload?.()
    }
    if (typeof requestIdleCallback !== 'function') {
      const timer = setTimeout(load, 0)
      return () => clearTimeout(timer)
    }
    const idle = requestIdleCallback(load, { timeout: 2000 })
    return () => cancelIdleCallback(idle)
  }, [isConfigured, preload])

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const email = String(form.get('email') ?? '')
    const password = String(form.get('password') ?? '')
    const found = validateLogin(email, password)
    setErrors(found)
    if (Object.keys(found).length > 0) return
    setIsSubmitting(true)
    onSubmitted()
    let api: Awaited<ReturnType<typeof loadSignIn>>
    try {
      api = await loadSignIn()
    } catch {
      setErrors({ form: da.login.network })
      setIsSubmitting(false)
      return
    }
    const { signIn, signInErrorMessage } = api
    try {
      const userId = await signIn(email, password)
      await onSignedIn(userId)
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
        <form
          noValidate
          onSubmit={(event) => void handleSubmit(event)}
          onFocus={() => void loadSignIn().catch(() => {})}
          aria-describedby={`${id}-form-error`}
        >
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
