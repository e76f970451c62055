import { daAccessLog } from '@bosted/domain/messages/da-access-log'
import { useParams } from 'react-router-dom'
import { Page } from '../../../../components/ui/page.tsx'
import { AccessLogPanel } from '../../../../features/access-log/components/access-log-panel.tsx'
import { usePerson } from '../../../../features/persons/api/get-person.ts'
import { personName } from '../../../../features/persons/person-name.ts'
import { RouteLoading } from '../../../layout/route-loading.tsx'

/**
 * /person/{id}/settings/access-log: the person's Adgangslog for superusers and admins. The tab is not
 * offered to employees; one who opens the address gets the api's refusal (403), shown as such.
 */
export function Component() {
  const { id = '' } = useParams()
  // The route's loader has read the person, so this is normally from the cache.
  const { data: person } = usePerson(id)
  return (
    <Page title={daAccessLog.title} level={3}>
      <AccessLogPanel personId={id} personName={person == null ? id : personName(person)} loading={<RouteLoading />} />
    </Page>
  )
}
