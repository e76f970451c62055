import { RouterProvider } from 'react-router-dom'
import { createAppRouter, prefetchRoute } from './router.tsx'
import { stopSessionOnLeave } from './session.ts'

export { preloadLanding } from './prefetch.ts'
export { completeSignIn } from './session.ts'

/**
 * The app: the router with every route, the session guard and its machinery. main.tsx loads it at
 * once, or — on a first visit to /login — while the sign-in form is filled in (issue 34).
 */
export function App() {
  return <RouterProvider router={router()} />
}

// The page's own code is fetched as soon as the route table is here (the router starts later, once
// the configuration has arrived).
prefetchRoute(location.pathname)

let created: ReturnType<typeof createAppRouter> | null = null
/** One router per app start (StrictMode renders twice). */
function router() {
  if (created === null) {
    stopSessionOnLeave()
    created = createAppRouter()
  }
  return created
}
