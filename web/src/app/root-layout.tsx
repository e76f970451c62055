import { Outlet } from 'react-router-dom'
import { Toaster } from '../components/ui/toaster.tsx'

export function RootLayout() {
  return (
    <>
      <Outlet />
      <Toaster />
    </>
  )
}
