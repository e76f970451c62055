import { useStorageImage } from '../../lib/avatars/use-storage-image.ts'

/**
 * The signed-in user's picture in the header, or their initial; decorative (the name is beside it).
 * A person's (borger's) own picture is read as themselves.
 */
export function UserAvatar({ name, url }: { name: string; url: string | null }) {
  const src = useStorageImage(url)
  return (
    <span className="user-menu__avatar" aria-hidden="true">
      {src !== null && /^(https?:|blob:)/.test(src) ? <img src={src} alt="" /> : name.slice(0, 1).toUpperCase()}
    </span>
  )
}
