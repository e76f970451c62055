import { useNavigate } from 'react-router-dom'
import { paths } from '../../lib/paths.ts'
import { LoginPage } from '../login-page.tsx'
import { preloadLanding } from '../prefetch.ts'
import { completeSignIn } from '../session.ts'

/** /login inside the app (after a sign-out, or a visit with a session cookie): the page, the router's way. */
export function Component() {
  const navigate = useNavigate()
  return (
    <LoginPage
      onSubmitted={preloadLanding}
      onSignedIn={async (userId) => {
        completeSignIn(userId)
        await navigate(paths.daily, { replace: true })
      }}
    />
  )
}
