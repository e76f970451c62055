import { displayName, initials } from '@bosted/domain/names'
import { useState } from 'react'
import { avatarErrorText, resizeImage } from '../resize-image.ts'
import type { ChosenAvatar } from '../use-chosen-avatar.ts'
import { AvatarField } from './avatar-field.tsx'

type Props = {
  firstName: string
  lastName: string
  avatar: ChosenAvatar | null
  /** 0–1 while the picture is uploaded after its owner was saved, else null. */
  progress: number | null
  onChange: (avatar: ChosenAvatar | null) => void
}

/** The picture of someone being created: resized and previewed here, uploaded by the form once they exist. */
export function AvatarPicker({ firstName, lastName, avatar, progress, onChange }: Props) {
  const [error, setError] = useState<string | null>(null)
  return (
    <AvatarField
      name={displayName({ firstName, lastName })}
      initials={initials({ firstName, lastName })}
      url={avatar?.preview ?? null}
      progress={progress}
      error={error}
      disabled={false}
      onChoose={(file) => {
        setError(null)
        resizeImage(file).then(
          (image) => onChange({ image, preview: URL.createObjectURL(image) }),
          (failure: unknown) => setError(avatarErrorText(failure)),
        )
      }}
      onRemove={() => onChange(null)}
    />
  )
}
