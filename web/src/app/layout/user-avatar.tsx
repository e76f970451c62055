/** The signed-in user's picture in the header, or their initial; decorative (the name is beside it). */
export function UserAvatar({ name, url }: { name: string; url: string | null }) {
  return (
    <span className="user-menu__avatar" aria-hidden="true">
      {url !== null && /^https?:/.test(url) ? <img src={url} alt="" /> : name.slice(0, 1).toUpperCase()}
    </span>
  )
}
