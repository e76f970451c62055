import { da } from '@bosted/domain/messages/da'
import { type FormEvent, useEffect, useId, useState } from 'react'
import { Field } from '../components/ui/field.tsx'
import { ForgotPassword } from '../features/passwords/components/forgot-password.tsx'
import { getRuntimeConfig } from '../lib/config.ts'

type Errors = { email?: string; password?: string; form?: string }

/**
 * Every field's message at once. Written by hand, not a zod schema: zod is not on /login before its
 * form works, and a schema would bring it (108.8 KB gzip with zod, 98.8 KB with zod/mini, against 81.7 KB
 * and a 100 KB budget; measured 2026-11-26).
 */
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
  // Field, not react-hook-form: its chunk (15.3 KB gzip with the resolvers, which need zod too) would
  // push /login's first load past its 100 KB budget (see validateLogin).
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
          <Field label={da.login.email} error={errors.email} announceError={false}>
            {(control) => (
              <input
                {...control}
                name="email"
                type="email"
                autoComplete="username"
                inputMode="email"
                disabled={!isConfigured}
              />
            )}
          </Field>
          <Field label={da.login.password} error={errors.password} announceError={false}>
            {(control) => (
              <input
                {...control}
                name="password"
                type="password"
                autoComplete="current-password"
                disabled={!isConfigured}
              />
            )}
          </Field>
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
