import { da } from '@bosted/domain/messages/da'
import { useState } from 'react'
import { useParams } from 'react-router-dom'
import { Choice } from '../../../../components/ui/choice.tsx'
import { Page } from '../../../../components/ui/page.tsx'
import { AnswerAdmin } from '../../../../features/answer-admin/components/answer-admin.tsx'
import { usePersonSettings } from '../../../../features/persons/use-person-settings.ts'
import { useSettingsAccess } from '../../../use-settings-access.ts'

/** Svarmuligheder: the person's own options and whether the location's apply too. */
export function Component() {
  const { id = '' } = useParams()
  const { person, canEdit, save } = usePersonSettings(id, useSettingsAccess())
  return (
    <Page title={da.pages.personSettingsAnswers} level={3}>
      {!canEdit && <p className="notice">{da.form.readOnly}</p>}
      {person !== null && (
        <>
          <IncludePlaceAnswers
            key={`${id}-${String(person.settings.includePlaceAnswers)}`}
            initial={person.settings.includePlaceAnswers}
            disabled={!canEdit}
            onChange={(checked) => save.mutateAsync({ 'settings.includePlaceAnswers': checked })}
          />
          <AnswerAdmin key={id} owner={{ entity: 'person', id }} canEdit={canEdit} />
        </>
      )}
    </Page>
  )
}

/** Saved at once; shown as chosen while saving, and set back if the save fails. */
function IncludePlaceAnswers({
  initial,
  disabled,
  onChange,
}: {
  initial: boolean
  disabled: boolean
  onChange: (checked: boolean) => Promise<void>
}) {
  const [checked, setChecked] = useState(initial)
  return (
    <Choice
      label={da.form.includePlaceAnswers}
      checked={checked}
      disabled={disabled}
      onChange={(event) => {
        const next = event.target.checked
        setChecked(next)
        onChange(next).catch(() => setChecked(!next))
      }}
    />
  )
}
