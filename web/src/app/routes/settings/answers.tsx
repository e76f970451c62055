import { da } from '@bosted/domain/messages/da'
import { Page } from '../../../components/ui/page.tsx'
import { AnswerAdmin } from '../../../features/answer-admin/components/answer-admin.tsx'
import { RouteLoading } from '../../layout/route-loading.tsx'
import { useSettingsAccess } from '../../use-settings-access.ts'

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
          <AnswerAdmin key={location.id} owner={{ entity: 'location', id: location.id }} canEdit={isManager} />
        </>
      )}
    </Page>
  )
}
