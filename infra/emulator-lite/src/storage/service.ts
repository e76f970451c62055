import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { AccessRecorder } from '../audit/recorder.ts'
import { ruledCaller } from '../firestore/service.ts'
import { compareStrings } from '../firestore/values.ts'
import type { Ctx } from '../http/core.ts'
import { ApiError, invalid } from '../http/errors.ts'
import type { Caller } from '../security/caller.ts'
import { Rulesets } from '../security/rulesets.ts'
import {
  createStorageGuard,
  downloadTokenSuffices,
  projectOfBucket,
  toStorageResource,
} from '../security/storage-guard.ts'
import type { Store, StoredObject, WriteStamp } from '../store/store.ts'
import { crc32c, md5 } from './checksums.ts'
import { parseMultipart } from './multipart.ts'
import { type UploadSession, UploadSessions } from './upload-sessions.ts'

const WRITABLE = ['cacheControl', 'contentDisposition', 'contentEncoding', 'contentLanguage', 'contentType'] as const
const TOKENS_KEY = 'firebaseStorageDownloadTokens'
/** A privileged caller's write (the GCS JSON API: firebase-admin): the api logs its own. */
const SERVER: WriteStamp = { writer: 'server', accessSeq: null }

export type ObjectMeta = {
  contentType: string
  cacheControl?: string
  contentDisposition?: string
  contentEncoding?: string
  contentLanguage?: string
  customMetadata: Record<string, string>
  downloadTokens: string
  generation: string
  metageneration: string
  timeCreated: string
  updated: string
  size: string
  md5Hash: string
  crc32c: string
}

export type StorageOptions = {
  /**
   * Decides a Firebase (`/v0`) `alt=media` download that carries no valid download token and no
   * privileged credentials while no storage.rules are loaded, as storage.rules would for the caller
   * (the request's `Authorization` header). Without it (and without rules) such downloads are
   * allowed, as in the official emulator without a rules file.
   */
  authorizeRead?: (req: IncomingMessage, bucket: string, name: string) => boolean | Promise<boolean>
  /**
   * storage.rules: when a ruleset is loaded, every Firebase (`/v0`) request without owner
   * credentials is decided by it (downloads without a valid token included, instead of authorizeRead).
   */
  rulesets?: Rulesets
  /** Object-name prefixes whose download tokens do not suffice: see downloadTokenSuffices. */
  tokenDownloadsNeedRules?: readonly string[]
  /** Records Firebase (`/v0`) requests on persons' objects in the access log (issue 22). */
  recorder?: AccessRecorder | null
  /** Resumable upload sessions: spooled, capped, expired (default: spooled under the OS temp dir). */
  uploads?: UploadSessions
}

/**
 * What the Storage routes share: the store, the rules, resumable upload sessions, the object views.
 * The GCS JSON API is a management surface (firebase-admin's): it reaches it on the admin listener.
 */
export function createStorageService(store: Store, options: StorageOptions = {}) {
  /** Where links and upload sessions point: the listener the request came in on. */
  const baseUrl = (c: Ctx) => `http://${c.env.incoming.headers.host ?? c.env.incoming.socket.localAddress}`
  const uploads = options.uploads ?? new UploadSessions()
  const rulesets = options.rulesets ?? new Rulesets({ firestore: null, storage: null })
  const guard = createStorageGuard(store, rulesets)

  /**
   * A write of an object, with a client's access-log entry for a person's object in the same SQLite
   * transaction (ADR 0017); the object keeps the entry's seq. Privileged writes are not logged here.
   */
  function loggedWrite<T>(
    c: Ctx,
    bucket: string,
    name: string,
    operation: 'create' | 'update' | 'delete',
    methodName: string,
    write: (stamp: WriteStamp) => T,
  ): T {
    const caller: Caller = c.get('caller')
    if (caller.privileged) return write(SERVER)
    return store.transaction(() => {
      const entries =
        options.recorder?.storageEntries(
          caller,
          c.env.incoming,
          projectOfBucket(bucket),
          bucket,
          name,
          operation,
          methodName,
        ) ?? []
      const [seq] = options.recorder?.append(entries.map((entry) => entry.record)) ?? []
      return write({ writer: 'client', accessSeq: seq ?? null })
    })
  }

  /** An access-log entry for a client's read of a person's object (privileged callers are not logged). */
  function recordAccess(c: Ctx, bucket: string, name: string, operation: 'get', methodName: string): void {
    const caller: Caller = c.get('caller')
    if (caller.privileged) return
    c.get('access').add((recorder: AccessRecorder) =>
      recorder.storage(caller, c.env.incoming, projectOfBucket(bucket), bucket, name, operation, methodName),
    )
  }

  /**
   * An upload through the Firebase API: `create` or `update` as the rules see it, before it is kept,
   * and at the start of a resumable upload, where only its size is known (`{ size }`: the declared
   * size; `md5Hash` and `crc32c` are then absent, so rules that read them refuse until finalize).
   */
  function authorizeUpload(
    c: Ctx,
    bucket: string,
    name: string,
    data: Buffer | { size: number },
    given: Record<string, unknown>,
  ): void {
    const caller = ruledCaller(c)
    if (!guard.isActive) return
    const existing = store.getObject(bucket, name) as (StoredObject & { metadata: ObjectMeta }) | null
    const customMetadata = stringRecord(given.metadata)
    delete customMetadata[TOKENS_KEY]
    const now = new Date().toISOString()
    guard.check(caller, {
      bucket,
      name,
      method: existing ? 'update' : 'create',
      resource: existing ? toStorageResource(bucket, name, existing.metadata) : null,
      requestResource: {
        name,
        bucket,
        contentType: typeof given.contentType === 'string' ? given.contentType : null,
        metadata: customMetadata,
        timeCreated: existing?.metadata.timeCreated ?? now,
        updated: now,
        ...(Buffer.isBuffer(data)
          ? { size: data.length, md5Hash: md5(data), crc32c: crc32c(data) }
          : { size: data.size }),
      },
    })
  }

  /**
   * A Firebase download needs one of the object's download tokens (where a token suffices: not under
   * `tokenDownloadsNeedRules`), privilege, or the rules' consent;
   * without rules it is allowed (unless the authorisation hook says otherwise), as in the official
   * emulator without a rules file. Like the official emulator, this is decided before existence, so a
   * caller without access cannot probe which names exist.
   */
  async function mayDownload(c: Ctx, bucket: string, name: string, meta: ObjectMeta | undefined): Promise<boolean> {
    const caller = ruledCaller(c)
    const token = c.get('url').searchParams.get('token')
    const hasToken = token !== null && meta?.downloadTokens.split(',').includes(token) === true
    if (hasToken && downloadTokenSuffices(name, options.tokenDownloadsNeedRules ?? [])) return true
    if (caller.privileged) return true
    if (guard.isActive) {
      guard.check(caller, {
        bucket,
        name,
        method: 'get',
        resource: meta ? toStorageResource(bucket, name, meta) : null,
        requestResource: null,
      })
      return true
    }
    return options.authorizeRead ? await options.authorizeRead(c.env.incoming, bucket, name) : true
  }

  function save(
    bucket: string,
    name: string,
    data: Buffer,
    given: Record<string, unknown>,
    stamp: WriteStamp = SERVER,
  ): ObjectMeta {
    if (name.length === 0 || name.length > 1024) throw invalid('Invalid object name')
    const now = new Date().toISOString()
    const custom = stringRecord(given.metadata)
    const tokens =
      custom[TOKENS_KEY] ?? (typeof given.downloadTokens === 'string' ? given.downloadTokens : randomUUID())
    delete custom[TOKENS_KEY]
    const meta: ObjectMeta = {
      contentType: typeof given.contentType === 'string' ? given.contentType : 'application/octet-stream',
      customMetadata: custom,
      downloadTokens: tokens,
      generation: String(Date.now()),
      metageneration: '1',
      timeCreated: now,
      updated: now,
      size: String(data.length),
      md5Hash: md5(data),
      crc32c: crc32c(data),
    }
    for (const key of WRITABLE)
      if (key !== 'contentType' && typeof given[key] === 'string') meta[key] = given[key] as string
    store.putObject({ bucket, name, data, metadata: meta }, stamp)
    return meta
  }

  function load(bucket: string, name: string): StoredObject & { metadata: ObjectMeta } {
    const object = store.getObject(bucket, name)
    if (!object) throw new ApiError('NOT_FOUND', `No such object: ${bucket}/${name}`)
    return object as StoredObject & { metadata: ObjectMeta }
  }

  /** What the Firebase (/v0) and GCS JSON views of an object share. */
  function objectFields(bucket: string, name: string, meta: ObjectMeta) {
    return {
      name,
      bucket,
      generation: meta.generation,
      metageneration: meta.metageneration,
      contentType: meta.contentType,
      timeCreated: meta.timeCreated,
      updated: meta.updated,
      storageClass: 'STANDARD',
      size: meta.size,
      md5Hash: meta.md5Hash,
      crc32c: meta.crc32c,
      etag: meta.md5Hash,
    }
  }

  function firebaseView(bucket: string, name: string, meta: ObjectMeta) {
    return {
      ...objectFields(bucket, name, meta),
      downloadTokens: meta.downloadTokens,
      contentEncoding: meta.contentEncoding ?? 'identity',
      contentDisposition: meta.contentDisposition ?? 'inline',
      metadata: meta.customMetadata,
      ...(meta.cacheControl ? { cacheControl: meta.cacheControl } : {}),
      ...(meta.contentLanguage ? { contentLanguage: meta.contentLanguage } : {}),
    }
  }

  function gcsView(c: Ctx, bucket: string, name: string, meta: ObjectMeta) {
    const encoded = encodeURIComponent(name)
    return {
      kind: 'storage#object',
      id: `${bucket}/${name}/${meta.generation}`,
      selfLink: `${baseUrl(c)}/storage/v1/b/${bucket}/o/${encoded}`,
      mediaLink: `${baseUrl(c)}/download/storage/v1/b/${bucket}/o/${encoded}?generation=${meta.generation}&alt=media`,
      ...objectFields(bucket, name, meta),
      ...(meta.cacheControl ? { cacheControl: meta.cacheControl } : {}),
      ...(meta.contentDisposition ? { contentDisposition: meta.contentDisposition } : {}),
      ...(meta.contentEncoding ? { contentEncoding: meta.contentEncoding } : {}),
      ...(meta.contentLanguage ? { contentLanguage: meta.contentLanguage } : {}),
      metadata: { ...meta.customMetadata, [TOKENS_KEY]: meta.downloadTokens },
    }
  }

  function updateMetadata(
    bucket: string,
    name: string,
    patch: Record<string, unknown>,
    authorize?: (next: ObjectMeta, current: ObjectMeta) => void,
    stamp: WriteStamp = SERVER,
  ): ObjectMeta {
    const { metadata } = load(bucket, name)
    const next: ObjectMeta = { ...metadata, customMetadata: { ...metadata.customMetadata } }
    for (const key of WRITABLE) {
      if (patch[key] === null) delete next[key]
      else if (typeof patch[key] === 'string') next[key] = patch[key] as string
    }
    if (!next.contentType) next.contentType = 'application/octet-stream'
    if (patch.metadata === null) next.customMetadata = {}
    else if (typeof patch.metadata === 'object' && patch.metadata !== undefined) {
      for (const [key, value] of Object.entries(patch.metadata as Record<string, unknown>)) {
        if (key === TOKENS_KEY && typeof value === 'string') next.downloadTokens = value
        else if (value === null) delete next.customMetadata[key]
        else next.customMetadata[key] = String(value)
      }
    }
    next.metageneration = String(Number(next.metageneration) + 1)
    next.updated = new Date().toISOString()
    authorize?.(next, metadata)
    store.updateObjectMetadata(bucket, name, next, stamp)
    return next
  }

  function list(c: Ctx, bucket: string, url: URL, view: 'firebase' | 'gcs') {
    const prefix = url.searchParams.get('prefix') ?? ''
    const delimiter = url.searchParams.get('delimiter') ?? ''
    const maxResults = Math.max(1, Math.min(Number(url.searchParams.get('maxResults') ?? 1000) || 1000, 1000))
    const pageToken = url.searchParams.get('pageToken') ?? ''
    const prefixes = new Set<string>()
    const items: { name: string; metadata: ObjectMeta }[] = []
    for (const object of store.listObjects(bucket, prefix)) {
      const rest = object.name.slice(prefix.length)
      const cut = delimiter ? rest.indexOf(delimiter) : -1
      if (cut >= 0) prefixes.add(prefix + rest.slice(0, cut + delimiter.length))
      else items.push({ name: object.name, metadata: object.metadata as ObjectMeta })
    }
    const entries = [
      ...[...prefixes].map((name) => ({ key: name, prefix: true as const })),
      ...items.map((item) => ({ key: item.name, prefix: false as const, item })),
    ]
      // GCS lists names in UTF-8 byte order, as Firestore orders strings (JS comparison is UTF-16 order).
      .sort((a, b) => compareStrings(a.key, b.key))
      .filter((entry) => compareStrings(entry.key, pageToken) > 0)
    const page = entries.slice(0, maxResults)
    const nextPageToken = entries.length > maxResults ? page[page.length - 1]?.key : undefined
    const pagePrefixes = page.filter((entry) => entry.prefix).map((entry) => entry.key)
    const pageItems = page.flatMap((entry) => (entry.prefix ? [] : [entry.item]))
    if (view === 'firebase') {
      return {
        prefixes: pagePrefixes,
        items: pageItems.map((item) => ({ name: item.name, bucket })),
        ...(nextPageToken ? { nextPageToken } : {}),
      }
    }
    return {
      kind: 'storage#objects',
      items: pageItems.map((item) => gcsView(c, bucket, item.name, item.metadata)),
      ...(pagePrefixes.length > 0 ? { prefixes: pagePrefixes } : {}),
      ...(nextPageToken ? { nextPageToken } : {}),
    }
  }

  function parseJsonBuffer(buffer: Buffer): Record<string, unknown> {
    if (buffer.length === 0) return {}
    try {
      const parsed = JSON.parse(buffer.toString('utf8'))
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object')
      return parsed
    } catch {
      throw invalid('Invalid JSON metadata')
    }
  }

  function multipartUpload(body: Buffer, contentType: string): { metadata: Record<string, unknown>; data: Buffer } {
    const [metaPart, dataPart] = parseMultipart(body, contentType)
    if (!metaPart || !dataPart) throw invalid('multipart upload needs a metadata part and a data part')
    const metadata = parseJsonBuffer(metaPart.body)
    if (metadata.contentType === undefined && dataPart.headers['content-type'])
      metadata.contentType = dataPart.headers['content-type']
    return { metadata, data: dataPart.body }
  }

  /** Whose upload session this is, for the per-caller bound: the owner, a user, or an address. */
  function callerKey(c: Ctx): string {
    const caller: Caller = c.get('caller')
    if (caller.privileged) return 'owner'
    return caller.auth ? `uid:${caller.auth.uid}` : `address:${c.env.incoming.socket.remoteAddress ?? ''}`
  }

  /** Opens a resumable upload session of `declared` bytes (null: not said) for the caller. */
  function startSession(
    c: Ctx,
    bucket: string,
    name: string,
    metadata: Record<string, unknown>,
    declared: number | null,
  ): UploadSession {
    return uploads.start({ bucket, name, metadata, declared, caller: callerKey(c) })
  }

  function objectName(url: URL, metadata: Record<string, unknown>): string {
    const name = url.searchParams.get('name') ?? (typeof metadata.name === 'string' ? metadata.name : null)
    if (!name) throw invalid('Object name is required')
    return name
  }

  /** An object's bytes, or the requested range of them. */
  function media(c: Ctx, object: StoredObject & { metadata: ObjectMeta }): Response {
    const { data, metadata } = object
    const headers: Record<string, string> = {
      'content-type': metadata.contentType,
      'x-goog-hash': `crc32c=${metadata.crc32c},md5=${metadata.md5Hash}`,
      ...(metadata.cacheControl ? { 'cache-control': metadata.cacheControl } : {}),
      ...(metadata.contentDisposition ? { 'content-disposition': metadata.contentDisposition } : {}),
    }
    const range = /^bytes=(\d+)-(\d*)$/.exec(String(c.env.incoming.headers.range ?? ''))
    if (range) {
      const start = Number(range[1])
      const end = Math.min(range[2] ? Number(range[2]) : data.length - 1, data.length - 1)
      const slice = data.subarray(start, end + 1)
      delete headers['x-goog-hash']
      return c.body(slice as Uint8Array<ArrayBuffer>, 206, {
        ...headers,
        'content-range': `bytes ${start}-${end}/${data.length}`,
        'content-length': String(slice.length),
      })
    }
    return c.body(data as Uint8Array<ArrayBuffer>, 200, {
      ...headers,
      'content-length': String(data.length),
    })
  }

  return {
    store,
    rulesets,
    guard,
    uploads,
    baseUrl,
    recordAccess,
    loggedWrite,
    authorizeUpload,
    mayDownload,
    save,
    load,
    firebaseView,
    gcsView,
    updateMetadata,
    list,
    parseJsonBuffer,
    multipartUpload,
    startSession,
    objectName,
    media,
  }
}

export type StorageService = ReturnType<typeof createStorageService>
export type StorageView = 'firebase' | 'gcs'

export function stringRecord(value: unknown): Record<string, string> {
  if (value === undefined || value === null) return {}
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid('metadata must be a map of strings')
  const out: Record<string, string> = {}
  for (const [key, item] of Object.entries(value)) if (item !== null && item !== undefined) out[key] = String(item)
  return out
}
