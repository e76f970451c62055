import { da } from '@bosted/domain/messages/da'
import { useNavigate } from 'react-router-dom'
import { useSnapshot } from 'valtio'
import { Page } from '../../components/ui/page.tsx'
import { changePassword } from '../../features/passwords/api/change-password.ts'
import { NewPasswordForm } from '../../features/passwords/components/new-password-form.tsx'
import { usePasswordPolicy } from '../../features/passwords/password-rules.ts'
import { markSessionFresh, session } from '../../features/session/session-store.ts'
import { getFirebase } from '../../lib/firebase.ts'
import { paths } from '../../lib/paths.ts'
import { showSuccess } from '../../lib/toast.ts'

/** Skift adgangskode: one's own password, re-entering the current one; first thing after a temporary one. */
export function Component() {
  const { user } = useSnapshot(session)
  const policy = usePasswordPolicy()
  const navigate = useNavigate()
  const isForced = user?.customClaims.mustChangePassword === true
  const email = getFirebase()?.auth.currentUser?.email ?? null

  const handleSubmit = async ({ current, next }: { current: string; next: string }) => {
    await changePassword(current, next)
    if (session.user !== null) {
      const { mustChangePassword: _done, ...claims } = session.user.customClaims
      session.user.customClaims = claims
    }
    markSessionFresh()
    showSuccess(da.passwords.changed)
    await navigate(session.user?.kind === 'person' ? paths.me : paths.daily, { replace: true })
  }

  return (
    <Page title={da.passwords.changeTitle}>
      {isForced && (
        <p className="notice" role="status">
          {da.passwords.forcedIntro}
        </p>
      )}
      <NewPasswordForm
        policy={policy}
        email={email}
        askCurrent
        submitLabel={da.passwords.submit}
        onSubmit={handleSubmit}
      />
    </Page>
  )
}
