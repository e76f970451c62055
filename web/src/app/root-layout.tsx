import { Outlet } from 'react-router-dom'
import { onDemandCode, useOnDemandCode } from '../lib/on-demand-code.ts'
import { useToasterWanted } from '../lib/toast.ts'

/** The toaster's code; a tablet offline before it arrived fetches it again once online. */
const toasterCode = onDemandCode(() => import('../components/ui/toaster.tsx'))

/**
 * Every page, and the toaster once it is wanted (lib/toast.ts: once a signed-in page has its data, or
 * at the first toast). Once mounted it stays: a toast may outlive the page that raised it.
 */
export function RootLayout() {
  const Toaster = useOnDemandCode(toasterCode, useToasterWanted()).loaded?.Toaster
  return (
    <>
      <Outlet />
      {Toaster && <Toaster />}
    </>
  )
}
