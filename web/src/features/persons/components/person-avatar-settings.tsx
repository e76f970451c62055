import type { Person } from '@bosted/domain/person'
import { useState } from 'react'
import { AvatarField } from '../../../lib/avatars/components/avatar-field.tsx'
import { avatarErrorText, resizeImage } from '../../../lib/avatars/resize-image.ts'
import { useRemovePersonAvatar, useSavePersonAvatar } from '../api/save-person-avatar.ts'
import { initials, personName } from '../person-name.ts'

/** The person's picture: resized, uploaded under persons/{id}/, its URL saved; removal deletes it. */
export function PersonAvatarSettings({ person, canEdit }: { person: Person; canEdit: boolean }) {
  const save = useSavePersonAvatar()
  const remove = useRemovePersonAvatar()
  const [error, setError] = useState<string | null>(null)

  const handleChoose = async (file: File) => {
    setError(null)
    let image: Blob
    try {
      image = await resizeImage(file)
    } catch (failure) {
      setError(avatarErrorText(failure))
      return
    }
    // The toast tells a failure; the mutation warns about it.
    await save.mutateAsync({ personId: person.id, image }).catch(() => {})
  }

  const handleRemove = async () => {
    setError(null)
    await remove.mutateAsync(person.id).catch(() => {})
  }

  return (
    <AvatarField
      name={personName(person)}
      initials={initials(person)}
      url={person.avatarUrl !== null && /^(https?:|blob:|data:)/.test(person.avatarUrl) ? person.avatarUrl : null}
      progress={save.progress}
      error={error}
      disabled={!canEdit}
      onChoose={(file) => void handleChoose(file)}
      onRemove={() => void handleRemove()}
    />
  )
}
