import { da } from '@bosted/domain/messages/da'
import { Outlet } from 'react-router-dom'
import { Page } from '../../../../components/ui/page.tsx'

export function Component() {
  return (
    <Page title={da.pages.createUser}>
      <Outlet />
    </Page>
  )
}
