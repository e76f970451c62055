import type { PasswordPolicyResponse } from '@bosted/domain/api'
import { da } from '@bosted/domain/messages/da'
import { useEffect, useState } from 'react'
import { Link, useSearchParams } from 'react-router-dom'
import { getPasswordPolicy } from '../../features/passwords/api/get-password-policy.ts'
import { resetPassword } from '../../features/passwords/api/reset-password.ts'
import { NewPasswordForm } from '../../features/passwords/components/new-password-form.tsx'
import { paths } from '../../lib/paths.ts'
import { reportError } from '../../lib/report-error.ts'

/** /reset-password?oobCode=…: the page a reset mail's link opens (no session needed). */
export function Component() {
  const [params] = useSearchParams()
  const oobCode = params.get('oobCode') ?? ''
  const [policy, setPolicy] = useState<PasswordPolicyResponse | null>(null)
  const [isDone, setIsDone] = useState(false)

  useEffect(() => {
    document.title = `${da.passwords.resetTitle} · ${da.shell.appName}`
    getPasswordPolicy().then(setPolicy).catch(reportError('the password policy could not be read'))
  }, [])

  return (
    <main className="login">
      <div className="login__card">
        <p className="login__brand">{da.shell.appName}</p>
        <h1>{da.passwords.resetTitle}</h1>
        {isDone ? (
          <p role="status">{da.passwords.resetDone}</p>
        ) : oobCode === '' ? (
          <p className="login__alert" role="alert">
            {da.passwords.resetInvalid}
          </p>
        ) : (
          <NewPasswordForm
            policy={policy}
            email={null}
            askCurrent={false}
            submitLabel={da.passwords.resetSubmit}
            onSubmit={async ({ next }) => {
              await resetPassword(oobCode, next)
              setIsDone(true)
            }}
          />
        )}
        <p className="login__forgot">
          <Link to={paths.login}>{da.passwords.backToLogin}</Link>
        </p>
      </div>
    </main>
  )
}
