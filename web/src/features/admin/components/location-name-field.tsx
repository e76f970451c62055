import { da } from '@bosted/domain/messages/da'
import { LOCATION_NAME_MAX_LENGTH } from '@bosted/domain/validation'
import { Field } from '../../../components/ui/field.tsx'

/** What is wrong with a location's name (required, and bounded once trimmed), or null. */
export function locationNameError(name: string): string | null {
  if (name.trim() === '') return da.admin.nameRequired
  if (name.trim().length > LOCATION_NAME_MAX_LENGTH) return da.validation.tooLong(LOCATION_NAME_MAX_LENGTH)
  return null
}

type Props = {
  label: string
  value: string
  error: string | null
  onChange: (value: string) => void
}

/** A location's name: the input stops at the limit, which the hint states. */
export function LocationNameField({ label, value, error, onChange }: Props) {
  return (
    <Field label={label} error={error ?? undefined} hint={da.validation.maxLengthHint(LOCATION_NAME_MAX_LENGTH)}>
      {(control) => (
        <input
          {...control}
          maxLength={LOCATION_NAME_MAX_LENGTH}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  )
}
