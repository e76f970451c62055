import { daAccessLog } from '@bosted/domain/messages/da-access-log'
import { useParams } from 'react-router-dom'
import { Page } from '../../../components/ui/page.tsx'
import { AccessLogPanel } from '../../../features/access-log/components/access-log-panel.tsx'
import { usePerson } from '../../../features/persons/api/get-person.ts'
import { personName } from '../../../features/persons/person-name.ts'
import { RouteLoading } from '../../layout/route-loading.tsx'

/** /admin/person/{id}/settings/access-log: the person's Adgangslog (the layout has read the person). */
export function Component() {
  const { id = '' } = useParams()
  const { data: person } = usePerson(id)
  return (
    <Page title={daAccessLog.title} level={2}>
      <AccessLogPanel personId={id} personName={person == null ? id : personName(person)} loading={<RouteLoading />} />
    </Page>
  )
}
