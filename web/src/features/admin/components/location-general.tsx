import type { Location } from '@bosted/domain/location'
import { da } from '@bosted/domain/messages/da'
import { type FormEvent, useId, useState } from 'react'
import { Dialog } from '../../../components/ui/dialog.tsx'
import { Field } from '../../../components/ui/field.tsx'
import { deleteAvatar, uploadAvatar } from '../../../lib/avatars/api/avatar-object.ts'
import { AvatarField } from '../../../lib/avatars/components/avatar-field.tsx'
import { avatarErrorText, resizeImage } from '../../../lib/avatars/resize-image.ts'
import { reportError } from '../../../lib/report-error.ts'
import type { LocationUpdate } from '../api/update-location.ts'
import { LocationNameField, locationNameError } from './location-name-field.tsx'

const LOGO_LABELS = { legend: da.admin.logo, choose: da.admin.logoChoose, remove: da.admin.logoRemove }
/** The logo's object (storage.rules: locations/{id}/*, written by admins). */
export const logoPath = (locationId: string) => `locations/${locationId}/logo`

type Props = {
  location: Location
  onUpdate: (update: LocationUpdate) => Promise<unknown>
  onDelete: () => void
}

/** A location's name, logo and deletion (confirmed by typing its name). */
export function LocationGeneral({ location, onUpdate, onDelete }: Props) {
  const [name, setName] = useState(location.name)
  const [error, setError] = useState<string | null>(null)
  const [progress, setProgress] = useState<number | null>(null)
  const [logoError, setLogoError] = useState<string | null>(null)
  const [isDeleting, setDeleting] = useState(false)
  const id = useId()

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault()
    const problem = locationNameError(name)
    setError(problem)
    if (problem !== null) return
    void onUpdate({ kind: 'general', name }).catch(() => {})
  }
  const handleLogo = async (file: File) => {
    setLogoError(null)
    let image: Blob
    try {
      image = await resizeImage(file)
    } catch (failure) {
      setLogoError(avatarErrorText(failure))
      return
    }
    setProgress(0)
    try {
      const url = await uploadAvatar(logoPath(location.id), image, setProgress)
      await onUpdate({ kind: 'logo', logoUrl: url })
    } catch (failure) {
      reportError('the logo could not be saved')(failure)
    } finally {
      setProgress(null)
    }
  }
  const handleRemoveLogo = async () => {
    try {
      await deleteAvatar(logoPath(location.id))
      await onUpdate({ kind: 'logo', logoUrl: null })
    } catch (failure) {
      reportError('the logo could not be removed')(failure)
    }
  }

  return (
    <>
      <form className="form" onSubmit={handleSubmit} noValidate>
        <LocationNameField label={da.admin.name} value={name} error={error} onChange={setName} />
        <div className="form__actions">
          <button type="submit" className="button button--primary">
            {da.admin.save}
          </button>
        </div>
      </form>
      <AvatarField
        name={location.name}
        initials={location.name.slice(0, 1).toUpperCase()}
        url={location.logoUrl !== null && /^(https?:|blob:|data:)/.test(location.logoUrl) ? location.logoUrl : null}
        progress={progress}
        error={logoError}
        disabled={false}
        labels={LOGO_LABELS}
        onChoose={(file) => void handleLogo(file)}
        onRemove={() => void handleRemoveLogo()}
      />
      <section className="danger-zone" aria-labelledby={`${id}-delete`}>
        <h3 id={`${id}-delete`}>{da.admin.deleteLocation}</h3>
        <p>{da.admin.deleteExplain}</p>
        <button type="button" className="button button--danger" onClick={() => setDeleting(true)}>
          {da.admin.deleteLocation}
        </button>
      </section>
      <DeleteDialog
        name={location.name}
        isOpen={isDeleting}
        onClose={() => setDeleting(false)}
        onConfirm={() => {
          setDeleting(false)
          onDelete()
        }}
      />
    </>
  )
}

function DeleteDialog({
  name,
  isOpen,
  onClose,
  onConfirm,
}: {
  name: string
  isOpen: boolean
  onClose: () => void
  onConfirm: () => void
}) {
  const [typed, setTyped] = useState('')
  const [error, setError] = useState<string | null>(null)
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (typed.trim() !== name.trim()) {
      setError(da.admin.deleteConfirmMismatch)
      return
    }
    setTyped('')
    setError(null)
    onConfirm()
  }
  return (
    <Dialog title={da.admin.deleteTitle} isOpen={isOpen} onClose={onClose}>
      <form className="form" onSubmit={handleSubmit} noValidate>
        <p>{da.admin.deleteExplain}</p>
        <Field label={da.admin.deleteConfirmLabel(name)} error={error ?? undefined}>
          {(control) => (
            <input {...control} value={typed} autoComplete="off" onChange={(event) => setTyped(event.target.value)} />
          )}
        </Field>
        <div className="dialog__actions">
          <button type="button" className="button button--secondary" onClick={onClose}>
            {da.admin.cancel}
          </button>
          <button type="submit" className="button button--danger">
            {da.admin.deleteLocation}
          </button>
        </div>
      </form>
    </Dialog>
  )
}
