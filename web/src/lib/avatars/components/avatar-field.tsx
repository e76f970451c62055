import { da } from '@bosted/domain/messages/da'
import { useId } from 'react'
import { useStorageImage } from '../use-storage-image.ts'

type Props = {
  /** Whose picture: the image's text alternative. */
  name: string
  initials: string
  url: string | null
  /** 0–1 while uploading, else null. */
  progress: number | null
  error: string | null
  disabled: boolean
  onChoose: (file: File) => void
  onRemove: () => void
  /** The field's words; a person's or colleague's picture by default, a location's logo otherwise. */
  labels?: { legend: string; choose: string; remove: string }
}

const PICTURE = {
  legend: da.personSettings.avatar,
  choose: da.personSettings.avatarChoose,
  remove: da.personSettings.avatarRemove,
}

/** The avatar with a preview, an image chooser, upload progress and removal. */
export function AvatarField({
  name,
  initials,
  url,
  progress,
  error,
  disabled,
  onChoose,
  onRemove,
  labels = PICTURE,
}: Props) {
  const inputId = useId()
  const errorId = useId()
  const isBusy = progress !== null
  const src = useStorageImage(url)
  return (
    <fieldset className="form__group avatar-field">
      <legend>{labels.legend}</legend>
      <div className="avatar-field__row">
        <span className="avatar avatar--large">
          {src !== null ? (
            <img src={src} alt={`${labels.legend}: ${name}`} />
          ) : (
            <span aria-hidden="true">{initials}</span>
          )}
        </span>
        {!disabled && (
          <div className="avatar-field__controls">
            <label htmlFor={inputId} className="button button--secondary">
              {labels.choose}
            </label>
            <input
              id={inputId}
              className="visually-hidden"
              type="file"
              accept="image/*"
              disabled={isBusy}
              aria-describedby={error === null ? undefined : errorId}
              onChange={(event) => {
                const file = event.target.files?.[0]
                event.target.value = ''
                if (file !== undefined) onChoose(file)
              }}
            />
            {url !== null && (
              <button type="button" className="button button--secondary" disabled={isBusy} onClick={onRemove}>
                {labels.remove}
              </button>
            )}
          </div>
        )}
      </div>
      {isBusy && <progress max={1} value={progress} aria-label={da.personSettings.avatarUploading} />}
      {error !== null && (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  )
}
