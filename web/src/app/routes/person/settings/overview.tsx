import { da } from '@bosted/domain/messages/da'
import { displayName } from '@bosted/domain/names'
import { Link, useParams } from 'react-router-dom'
import { Page } from '../../../../components/ui/page.tsx'
import { usePerson } from '../../../../features/persons/api/get-person.ts'
import { paths } from '../../../../lib/paths.ts'

/** Oversigt: the person's settings at a glance, each part linking to its tab. */
export function Component() {
  const { id = '' } = useParams()
  // The route's loader has read the person, so this is normally from the cache.
  const { data: person } = usePerson(id)
  if (person == null) return <Page title={da.pages.personSettingsOverview} level={3} />
  const { settings } = person
  const { all, answers, freeText, speechToText } = settings.features
  const features: string[] = [
    ...(all || answers ? [da.form.featureAnswers] : []),
    ...(all || freeText ? [da.form.featureFreeText] : []),
    ...(all || speechToText ? [da.form.featureSpeechToText] : []),
  ]
  const reminder = settings.notifications?.reminderTime
  return (
    <Page title={da.pages.personSettingsOverview} level={3}>
      <dl className="settings-overview">
        <div>
          <dt>
            <Link to={paths.person.settings.general(id)}>{da.pages.personSettingsGeneral}</Link>
          </dt>
          <dd>
            {displayName(person)}
            {person.contact?.email ? ` · ${person.contact.email}` : ''}
            {person.contact?.phone ? ` · ${person.contact.phone}` : ''}
            {' · '}
            {settings.disabled ? da.settingsList.disabled : da.settingsList.active}
          </dd>
        </div>
        <div>
          <dt>
            <Link to={paths.person.settings.answers(id)}>{da.pages.personSettingsAnswers}</Link>
          </dt>
          <dd>
            {da.personSettings.ownOptions(settings.answerOptions.length)} ·{' '}
            {settings.includePlaceAnswers ? da.personSettings.placeAnswersOn : da.personSettings.placeAnswersOff}
          </dd>
        </div>
        <div>
          <dt>
            <Link to={paths.person.settings.notifications(id)}>{da.pages.personSettingsNotifications}</Link>
          </dt>
          <dd>{reminder ? da.personSettings.reminderAt(reminder) : da.personSettings.reminderNone}</dd>
        </div>
        <div>
          <dt>
            <Link to={paths.person.settings.features(id)}>{da.pages.personSettingsFeatures}</Link>
          </dt>
          <dd>{features.length === 0 ? da.personSettings.noFeatures : features.join(', ')}</dd>
        </div>
      </dl>
    </Page>
  )
}
