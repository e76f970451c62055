import type { LocationFeatures } from '@bosted/domain/location-features'
import { da } from '@bosted/domain/messages/da'
import { type FormEvent, useId, useState } from 'react'
import { Choice } from '../../../components/ui/choice.tsx'
import type { LocationUpdate } from '../api/update-location.ts'

const FEATURES: [keyof LocationFeatures, string][] = [
  ['answers', da.admin.featureAnswers],
  ['freeText', da.admin.featureFreeText],
  ['dictation', da.admin.featureDictation],
  ['cloudDictation', da.admin.featureCloudDictation],
]

type Props = { features: LocationFeatures; onUpdate: (update: LocationUpdate) => Promise<unknown> }

/** What a location's staff and persons may use; cloud dictation only with dictation itself on. */
export function LocationFeaturesForm({ features, onUpdate }: Props) {
  const [chosen, setChosen] = useState(features)
  const hintId = useId()
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault()
    void onUpdate({
      kind: 'features',
      features: { ...chosen, cloudDictation: chosen.dictation && chosen.cloudDictation },
    }).catch(() => {})
  }
  return (
    <form className="form" onSubmit={handleSubmit}>
      <fieldset className="form__group">
        <legend>{da.admin.featuresLegend}</legend>
        {FEATURES.map(([key, label]) => (
          <Choice
            key={key}
            label={label}
            checked={chosen[key]}
            disabled={key === 'cloudDictation' && !chosen.dictation}
            aria-describedby={key === 'cloudDictation' ? hintId : undefined}
            onChange={(event) => setChosen((current) => ({ ...current, [key]: event.target.checked }))}
          />
        ))}
        <p id={hintId} className="field__hint">
          {da.admin.featureCloudDictationHint}
        </p>
      </fieldset>
      <div className="form__actions">
        <button type="submit" className="button button--primary">
          {da.admin.save}
        </button>
      </div>
    </form>
  )
}
