import type { Person } from '@bosted/domain/person'
import { initials } from '../person-name.ts'

type Props = { person: Pick<Person, 'firstName' | 'lastName' | 'avatarUrl'>; size?: 'small' | 'large' }

/** The person's picture, or their initials; decorative, as the name is always next to it. */
export function PersonAvatar({ person, size = 'small' }: Props) {
  const url = person.avatarUrl
  return (
    <span className={`avatar avatar--${size}`} aria-hidden="true">
      {url !== null && /^https?:/.test(url) ? <img src={url} alt="" loading="lazy" /> : initials(person)}
    </span>
  )
}
