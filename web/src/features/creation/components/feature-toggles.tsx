import { da } from '@bosted/domain/messages/da'
import { Choice } from '../../../components/ui/choice.tsx'
import { type Features, toggleFeature } from '../person-form.ts'

const LABELS: [keyof Features, string][] = [
  ['all', da.form.featureAll],
  ['answers', da.form.featureAnswers],
  ['freeText', da.form.featureFreeText],
  ['speechToText', da.form.featureSpeechToText],
]

type Props = { value: Features; onChange: (features: Features) => void; disabled?: boolean }

/** The person's features; 'Alle funktioner' switches the other three together. */
export function FeatureToggles({ value, onChange, disabled = false }: Props) {
  return (
    <fieldset className="form__group" disabled={disabled}>
      <legend>{da.form.features}</legend>
      {LABELS.map(([name, label]) => (
        <Choice
          key={name}
          label={label}
          checked={value[name]}
          onChange={(event) => onChange(toggleFeature(value, name, event.target.checked))}
        />
      ))}
    </fieldset>
  )
}
