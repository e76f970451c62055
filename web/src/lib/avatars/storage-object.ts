/** An object in Cloud Storage, as the Storage SDK names it: `gs://<bucket>/<path>`. */
export type StorageObject = { bucket: string; path: string }

/**
 * The object a Firebase download URL points at (`…/v0/b/<bucket>/o/<path, URL-encoded>?alt=media&token=…`,
 * from production or an emulator); null for any other URL. Documents keep the download URL they
 * were given (`avatarUrl`): this is the one place that reads the object back out of it.
 */
export function storageObjectOfUrl(url: string): StorageObject | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return null
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null
  const match = /\/v0\/b\/([^/]+)\/o\/([^/]+)$/.exec(parsed.pathname)
  if (!match) return null
  try {
    const bucket = decodeURIComponent(match[1] as string)
    const path = decodeURIComponent(match[2] as string)
    return bucket === '' || path === '' ? null : { bucket, path }
  } catch {
    return null
  }
}

/**
 * Objects read with the signed-in user's identity rather than their download URL's token: a person's
 * data (storage.rules `persons/{personId}/{file}`), so the person's Adgangslog names who looked, and
 * the backend refuses the token alone there (emulator-lite `--token-downloads-need-rules persons/`).
 */
export const isReadWithIdentity = (object: StorageObject): boolean => object.path.startsWith('persons/')
