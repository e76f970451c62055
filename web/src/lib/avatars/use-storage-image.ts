import { useEffect, useSyncExternalStore } from 'react'
import { type ImageCache, identifiedImages } from './image-cache.ts'
import { isReadWithIdentity, storageObjectOfUrl } from './storage-object.ts'

const SHOWN_AS_IS = /^(https?:|blob:|data:)/

/**
 * What an `<img>` shows for a stored picture URL (`avatarUrl`): a person's picture is downloaded with
 * the signed-in user's identity and shown from an object URL (null until it is there, and if it
 * cannot be read: show the initials); any other http(s), blob: or data: URL as it is; anything else null.
 */
export function useStorageImage(url: string | null, cache: ImageCache = identifiedImages): string | null {
  const object = url === null ? null : storageObjectOfUrl(url)
  const identified = object !== null && isReadWithIdentity(object) ? object : null
  const bucket = identified?.bucket
  const path = identified?.path
  const loaded = useSyncExternalStore(cache.subscribe, () =>
    url !== null && identified !== null ? cache.peek(url, identified) : null,
  )
  useEffect(() => {
    if (url !== null && bucket !== undefined && path !== undefined) cache.load(url, { bucket, path })
  }, [cache, url, bucket, path])
  if (url === null) return null
  if (identified !== null) return loaded
  return SHOWN_AS_IS.test(url) ? url : null
}
