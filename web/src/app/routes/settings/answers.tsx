import { da } from '@bosted/domain/messages/da'
import { Page } from '../../../components/ui/page.tsx'
import { AnswerAdmin } from '../../../features/answer-admin/components/answer-admin.tsx'
import { locations } from '../../../features/locations/locations-store.ts'
import { RouteLoading } from '../../layout/route-loading.tsx'
import { useSettingsAccess } from '../../use-settings-access.ts'

/** The active location's order lives in the locations store too: /daily's register dialog reads it. */
function keepLocationOrder(locationId: string, order: string[]) {
  const entry = locations.list.find((candidate) => candidate.id === locationId)
  if (entry !== undefined) entry.answerOptions = order
}

/** Svarmuligheder: the active location's answer options. */
export function Component() {
  const { location, loaded, isManager } = useSettingsAccess()
  return (
    <Page title={da.pages.settingsAnswers} level={2}>
      {!loaded ? (
        <RouteLoading />
      ) : location === null ? (
        <p className="notice">{da.settingsList.noLocation}</p>
      ) : (
        <>
          {!isManager && <p className="notice">{da.form.readOnly}</p>}
          <AnswerAdmin
            key={location.id}
            owner={{ entity: 'location', id: location.id }}
            canEdit={isManager}
            onOrderSaved={(order) => keepLocationOrder(location.id, order)}
          />
        </>
      )}
    </Page>
  )
}
