import { initials } from '@bosted/domain/names'
import type { Person } from '@bosted/domain/person'
import { useStorageImage } from './use-storage-image.ts'

type Props = { person: Pick<Person, 'firstName' | 'lastName' | 'avatarUrl'>; size?: 'small' | 'large' }

/**
 * The person's (or staff member's) picture, or their initials while it loads or when it cannot be
 * read; decorative, as the name is always next to it. A person's picture is read as the signed-in user.
 */
export function PersonAvatar({ person, size = 'small' }: Props) {
  const src = useStorageImage(person.avatarUrl)
  return (
    <span className={`avatar avatar--${size}`} aria-hidden="true">
      {src !== null && /^(https?:|blob:)/.test(src) ? <img src={src} alt="" loading="lazy" /> : initials(person)}
    </span>
  )
}
