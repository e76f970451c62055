import { da } from '@bosted/domain/messages/da'
import type { PersonFeatures } from '@bosted/domain/person'
import { type FormEvent, useState } from 'react'
import { useParams } from 'react-router-dom'
import { Page } from '../../../../components/ui/page.tsx'
import { FeatureToggles } from '../../../../features/creation/components/feature-toggles.tsx'
import { toggleFeature } from '../../../../features/creation/person-form.ts'
import { usePersonSettings } from '../../../../features/persons/use-person-settings.ts'
import { useSettingsAccess } from '../../../use-settings-access.ts'

/** Funktioner: answers, free text and speech to text, or all of them. */
export function Component() {
  const { id = '' } = useParams()
  const { person, canEdit, save } = usePersonSettings(id, useSettingsAccess())
  return (
    <Page title={da.pages.personSettingsFeatures} level={3}>
      {!canEdit && <p className="notice">{da.form.readOnly}</p>}
      {person !== null && (
        <FeaturesForm
          key={id}
          initial={person.settings.features}
          canEdit={canEdit}
          onSave={(features) => save.mutate({ 'settings.features': features })}
        />
      )}
    </Page>
  )
}

function FeaturesForm({
  initial,
  canEdit,
  onSave,
}: {
  initial: PersonFeatures
  canEdit: boolean
  onSave: (features: PersonFeatures) => void
}) {
  // A stored `all` with the others unset still means every feature.
  const [features, setFeatures] = useState(initial.all ? toggleFeature(initial, 'all', true) : initial)
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault()
    onSave(features)
  }
  return (
    <form className="form" noValidate onSubmit={handleSubmit}>
      <FeatureToggles value={features} onChange={setFeatures} disabled={!canEdit} />
      {canEdit && (
        <div className="form__actions">
          <button type="submit" className="button button--action">
            {da.form.save}
          </button>
        </div>
      )}
    </form>
  )
}
