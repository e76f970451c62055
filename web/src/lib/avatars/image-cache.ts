import { reportError } from '../../lib/report-error.ts'
import type { StorageObject } from './storage-object.ts'

type Entry = { url: string; objectUrl: string | null }

/** Enough for every avatar on the longest list; beyond it the least recently asked for is dropped. */
export const IMAGE_CACHE_SIZE = 300

/**
 * Images downloaded with the reader's identity, as object URLs, for the session: one download per
 * object while its download URL stays the same (a new picture has a new URL and is fetched again).
 * An object URL is revoked when its entry goes (replaced, evicted, cleared); a failed download leaves
 * no entry, so the next component that asks tries again.
 */
export function createImageCache(
  download: (object: StorageObject) => Promise<Blob>,
  {
    size = IMAGE_CACHE_SIZE,
    createObjectUrl = (blob: Blob) => URL.createObjectURL(blob),
    revokeObjectUrl = (objectUrl: string) => URL.revokeObjectURL(objectUrl),
  } = {},
) {
  // Keyed by bucket and path; Map order is the recency order (oldest first).
  const entries = new Map<string, Entry>()
  const listeners = new Set<() => void>()
  const notify = () => {
    for (const listener of listeners) listener()
  }
  const keyOf = (object: StorageObject) => `${object.bucket}/${object.path}`

  const drop = (key: string) => {
    const entry = entries.get(key)
    if (entry === undefined) return
    entries.delete(key)
    if (entry.objectUrl !== null) revokeObjectUrl(entry.objectUrl)
  }

  return {
    /** The object URL of this download URL's image once downloaded, else null. */
    peek(url: string, object: StorageObject): string | null {
      const entry = entries.get(keyOf(object))
      return entry?.url === url ? entry.objectUrl : null
    },

    /** Starts the download unless it is done or under way. */
    load(url: string, object: StorageObject): void {
      const key = keyOf(object)
      const current = entries.get(key)
      if (current?.url === url) {
        entries.delete(key)
        entries.set(key, current)
        return
      }
      if (current !== undefined) {
        drop(key)
        notify()
      }
      const entry: Entry = { url, objectUrl: null }
      entries.set(key, entry)
      for (const oldest of entries.keys()) {
        if (entries.size <= size) break
        drop(oldest)
      }
      download(object).then(
        (blob) => {
          // Cleared (signed out), evicted or replaced meanwhile: nobody wants it any more.
          if (entries.get(key) !== entry) return
          entry.objectUrl = createObjectUrl(blob)
          notify()
        },
        (error: unknown) => {
          if (entries.get(key) === entry) entries.delete(key)
          reportError('an image could not be loaded')(error)
        },
      )
    },

    subscribe(listener: () => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },

    /** Forgets every image and revokes its object URL (on sign-out). */
    clear(): void {
      for (const key of [...entries.keys()]) drop(key)
      notify()
    },

    get size(): number {
      return entries.size
    },
  }
}

export type ImageCache = ReturnType<typeof createImageCache>

/**
 * The session's cache of images read with the signed-in user's identity. The download code (Storage,
 * Auth) is imported with the first picture: the sign-in page, which imports this cache through the
 * session, carries none of it.
 */
export const identifiedImages: ImageCache = createImageCache(async (object) =>
  (await import('./api/download-image.ts')).downloadImage(object),
)

/** On sign-out: the next user downloads with their own identity. */
export function clearIdentifiedImages(): void {
  identifiedImages.clear()
}
