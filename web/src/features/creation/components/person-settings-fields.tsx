import { da } from '@bosted/domain/messages/da'
import { Controller, useFormContext } from 'react-hook-form'
import { Choice } from '../../../components/ui/choice.tsx'
import { TextField } from '../../../components/ui/text-field.tsx'
import type { PersonForm } from '../person-form.ts'
import { FeatureToggles } from './feature-toggles.tsx'

/** Step 3 of a new person: features, disabled and the daily reminder time. */
export function PersonSettingsFields() {
  const { control, register } = useFormContext<PersonForm>()
  return (
    <>
      <Controller
        control={control}
        name="features"
        render={({ field }) => <FeatureToggles value={field.value} onChange={field.onChange} />}
      />
      <Choice label={da.form.disabled} {...register('disabled')} />
      <TextField<PersonForm> name="reminderTime" label={da.form.reminderTime} type="time" />
    </>
  )
}
