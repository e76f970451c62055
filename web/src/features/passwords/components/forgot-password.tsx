import type { PasswordPolicyResponse } from '@bosted/domain/api'
import { da } from '@bosted/domain/messages/da'
import { type FormEvent, useId, useState } from 'react'
import { Field } from '../../../components/ui/field.tsx'
import { reportError } from '../../../lib/report-error.ts'

/**
 * "Glemt adgangskode?" under the sign-in form: says whom to ask, and where the pilot has a mail relay
 * offers a reset link by mail.
 */
export function ForgotPassword() {
  const [isOpen, setIsOpen] = useState(false)
  const [policy, setPolicy] = useState<PasswordPolicyResponse | null>(null)
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle')
  const id = useId()

  const open = () => {
    setIsOpen((value) => !value)
    if (policy === null) {
      // Loaded on the first click: the sign-in page's own code stays what signing in needs.
      import('../api/get-password-policy.ts')
        .then(({ getPasswordPolicy }) => getPasswordPolicy())
        .then(setPolicy)
        .catch(reportError('the password policy could not be read'))
    }
  }
  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const email = String(new FormData(event.currentTarget).get('email') ?? '').trim()
    if (email === '') return
    setState('sending')
    try {
      const { requestPasswordReset } = await import('../api/reset-password.ts')
      await requestPasswordReset(email)
      setState('sent')
    } catch (error) {
      reportError('the reset link could not be requested')(error)
      setState('failed')
    }
  }

  return (
    <div className="login__forgot">
      <button
        type="button"
        className="login__forgot-toggle"
        aria-expanded={isOpen}
        aria-controls={`${id}-panel`}
        onClick={open}
      >
        {da.passwords.forgotLink}
      </button>
      <div id={`${id}-panel`} className="login__forgot-panel" hidden={!isOpen}>
        <p>{da.passwords.forgotAsk}</p>
        {policy?.resetByMail === true && (
          <form noValidate onSubmit={(event) => void handleSubmit(event)}>
            <p>{da.passwords.forgotMailIntro}</p>
            <Field label={da.login.email}>
              {(control) => <input {...control} name="email" type="email" autoComplete="username" inputMode="email" />}
            </Field>
            <div role="status">
              {state === 'sent' ? da.passwords.forgotSent : state === 'failed' ? da.api.unavailable : ''}
            </div>
            <button type="submit" className="button button--secondary" disabled={state === 'sending'}>
              {state === 'sending' ? da.passwords.forgotSending : da.passwords.forgotSend}
            </button>
          </form>
        )}
      </div>
    </div>
  )
}
