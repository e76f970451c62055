import { da } from '@bosted/domain/messages/da'
import { type FormEvent, useEffect, useId, useState } from 'react'
import { useNavigate } from 'react-router-dom'
import { ForgotPassword } from '../../features/passwords/components/forgot-password.tsx'
import { markSessionFresh, session } from '../../features/session/session-store.ts'
import { getRuntimeConfig } from '../../lib/config.ts'
import { paths } from '../../lib/paths.ts'
import { prefetch } from '../prefetch.ts'
import { preloadToaster } from '../root-layout.tsx'
import { endSession, primeSignedInUser } from '../session.ts'

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
const loadSignIn = () => import('../../features/session/api/sign-in.ts')

/**
 * The landing page's code, fetched while the sign-in request runs so that none of it waits for the
 * answer: the signed-in shell and /daily, the user and location loaders, Firestore Lite, the toaster.
 * (A person's account lands on "Min dag" instead; the shell and Firestore are the same.)
 */
function preloadLanding(): void {
  prefetch(paths.daily)
  const ignore = () => {}
  import('../../features/session/api/load-session-user.ts').catch(ignore)
  import('../../features/locations/api/get-locations.ts').catch(ignore)
  import('../../lib/firestore.ts').then((module) => module.firestoreLite()).catch(ignore)
  preloadToaster().catch(ignore)
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

  useEffect(() => {
    if (!isConfigured) return
    const load = () => void loadSignIn().catch(() => {})
    if (typeof requestIdleCallback !== 'function') {
      const timer = setTimeout(load, 0)
      return () => clearTimeout(timer)
    }
    const idle = requestIdleCallback(load, { timeout: 2000 })
    return () => cancelIdleCallback(idle)
  }, [isConfigured])

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const email = String(form.get('email') ?? '')
    const password = String(form.get('password') ?? '')
    const found = validateLogin(email, password)
    setErrors(found)
    if (Object.keys(found).length > 0) return
    setIsSubmitting(true)
    preloadLanding()
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
      // A different user replaces whatever user this browser remembered.
      if (session.user !== null && session.user.id !== userId) endSession()
      markSessionFresh()
      primeSignedInUser(userId)
      await navigate(paths.daily, { replace: true })
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
