import { lazy, Suspense, useState } from 'react'
import { Outlet, useLocation } from 'react-router-dom'
import { paths } from '../lib/paths.ts'

/** The pages before a session, which show no toasts: the toaster (sonner) loads after them. */
const NO_TOASTS = new Set<string>([paths.login, paths.resetPassword])

const Toaster = lazy(async () => ({ default: (await import('../components/ui/toaster.tsx')).Toaster }))

export function RootLayout() {
  const { pathname } = useLocation()
  // Once shown, the toaster stays (a toast may outlive the page that raised it).
  const [needed, setNeeded] = useState(!NO_TOASTS.has(pathname))
  if (!needed && !NO_TOASTS.has(pathname)) setNeeded(true)
  return (
    <>
      <Outlet />
      {needed && (
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      )}
    </>
  )
}
