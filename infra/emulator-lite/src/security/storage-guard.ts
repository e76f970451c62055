import { checkStorage, type DocLookup, type StorageResource } from '../rules/index.ts'
import type { Store } from '../store/store.ts'
import type { Caller } from './caller.ts'
import { permissionDenied } from './firestore-guard.ts'
import type { Rulesets } from './rulesets.ts'

export type StorageMethod = 'get' | 'list' | 'create' | 'update' | 'delete'

/** Stored object metadata as emulator-lite keeps it (storage/routes.ts). */
export type StoredMeta = {
  contentType: string
  size: string
  md5Hash: string
  crc32c: string
  generation: string
  metageneration: string
  timeCreated: string
  updated: string
  cacheControl?: string
  contentDisposition?: string
  contentEncoding?: string
  contentLanguage?: string
  customMetadata: Record<string, string>
}

/**
 * Firebase's default buckets are named after their project (`<project>.appspot.com`,
 * `<project>.firebasestorage.app`): that is the project whose documents `firestore.get()` reads.
 */
export function projectOfBucket(bucket: string): string {
  return bucket.replace(/\.(appspot\.com|firebasestorage\.app)$/, '')
}

export function toStorageResource(bucket: string, name: string, meta: StoredMeta): StorageResource {
  return {
    name,
    bucket,
    size: Number(meta.size),
    contentType: meta.contentType,
    md5Hash: meta.md5Hash,
    crc32c: meta.crc32c,
    etag: meta.md5Hash,
    generation: meta.generation,
    metageneration: meta.metageneration,
    timeCreated: meta.timeCreated,
    updated: meta.updated,
    cacheControl: meta.cacheControl,
    contentDisposition: meta.contentDisposition,
    contentEncoding: meta.contentEncoding,
    contentLanguage: meta.contentLanguage,
    metadata: meta.customMetadata,
  }
}

/**
 * Whether a download token by itself opens this object. Production lets a download URL's token bypass
 * the rules; an operator can list object-name prefixes (`tokenDownloadsNeedRules`, e.g. `persons/` in
 * the Bosted stack) under which it does not: there a download is decided as one without a token (the
 * rules' `read` for the caller's `Authorization`), so every read is someone's, and a leaked URL opens
 * nothing. Prefixes are matched against the object name (no leading slash), case-sensitive.
 */
export function downloadTokenSuffices(name: string, tokenDownloadsNeedRules: readonly string[]): boolean {
  return !tokenDownloadsNeedRules.some((prefix) => prefix !== '' && name.startsWith(prefix))
}

/**
 * storage.rules for the Firebase (`/v0`) routes. The GCS JSON routes are firebase-admin's, a
 * management surface (the admin listener, or the admin secret): no rules apply there.
 */
export function createStorageGuard(store: Store, rulesets: Rulesets) {
  return {
    /** Whether a ruleset is loaded (without one, the Firebase routes allow what they always did). */
    get isActive(): boolean {
      return rulesets.storage() !== null
    },

    /** Throws PERMISSION_DENIED unless the caller (owner, or as the rules decide) may do this. */
    check(
      caller: Caller,
      access: {
        bucket: string
        name: string
        method: StorageMethod
        resource: StorageResource | null
        requestResource: StorageResource | null
      },
    ): void {
      const ruleset = rulesets.storage()
      if (ruleset === null) return
      if (caller.privileged) return
      const project = projectOfBucket(access.bucket)
      const read = (path: string) => store.getDocument(project, '(default)', path)?.fields ?? null
      const firestore: DocLookup = { get: read, getAfter: read }
      const decision = checkStorage(ruleset, { ...access, auth: caller.auth, time: new Date(), firestore })
      if (!decision.allowed) throw permissionDenied(decision)
    },
  }
}

export type StorageGuard = ReturnType<typeof createStorageGuard>
