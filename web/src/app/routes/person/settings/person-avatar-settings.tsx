import type { Person } from '@bosted/domain/person'
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { savePersonAvatar } from '../../../../features/persons/api/save-person-avatar.ts'
import { updatePerson } from '../../../../features/persons/api/update-person.ts'
import { PERSON_UPDATE_TOASTS } from '../../../../features/persons/person-changes.ts'
import { initials, personName } from '../../../../features/persons/person-name.ts'
import { avatarPath, deleteAvatar } from '../../../../lib/avatars/api/avatar-object.ts'
import { AvatarField } from '../../../../lib/avatars/components/avatar-field.tsx'
import { avatarErrorText, resizeImage } from '../../../../lib/avatars/resize-image.ts'
import { toastPromise } from '../../../../lib/toast.ts'

/** The person's picture: resized, uploaded under persons/{id}/, its URL saved; removal deletes it. */
export function PersonAvatarSettings({ person, canEdit }: { person: Person; canEdit: boolean }) {
  const queryClient = useQueryClient()
  const [progress, setProgress] = useState<number | null>(null)
  const [error, setError] = useState<string | null>(null)
  const path = avatarPath({ kind: 'persons', id: person.id })
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['persons'] })

  const handleChoose = async (file: File) => {
    setError(null)
    let image: Blob
    try {
      image = await resizeImage(file)
    } catch (failure) {
      setError(avatarErrorText(failure))
      return
    }
    setProgress(0)
    await toastPromise(savePersonAvatar(person.id, image, setProgress), PERSON_UPDATE_TOASTS)
      .catch((failure: unknown) => console.warn('the avatar could not be saved', (failure as Error).name))
      .finally(() => setProgress(null))
    await refresh()
  }

  const handleRemove = async () => {
    setError(null)
    const work = async () => {
      await deleteAvatar(path)
      await updatePerson(person.id, { avatarUrl: null })
    }
    await toastPromise(work(), PERSON_UPDATE_TOASTS).catch((failure: unknown) =>
      console.warn('the avatar could not be removed', (failure as Error).name),
    )
    await refresh()
  }

  return (
    <AvatarField
      name={personName(person)}
      initials={initials(person)}
      url={person.avatarUrl !== null && /^(https?:|blob:|data:)/.test(person.avatarUrl) ? person.avatarUrl : null}
      progress={progress}
      error={error}
      disabled={!canEdit}
      onChoose={(file) => void handleChoose(file)}
      onRemove={() => void handleRemove()}
    />
  )
}
