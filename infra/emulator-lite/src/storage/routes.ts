import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AccessRecorder } from '../audit/recorder.ts'
import { compareStrings } from '../firestore/values.ts'
import { ApiError, invalid } from '../http/errors.ts'
import { readBody, readJson, sendJson } from '../http/server.ts'
import { type Caller, callerOf } from '../security/caller.ts'
import { Rulesets } from '../security/rulesets.ts'
import {
  createStorageGuard,
  downloadTokenSuffices,
  projectOfBucket,
  toStorageResource,
} from '../security/storage-guard.ts'
import type { Store, StoredObject } from '../store/store.ts'
import { crc32c, md5 } from './checksums.ts'
import { parseMultipart } from './multipart.ts'

const WRITABLE = ['cacheControl', 'contentDisposition', 'contentEncoding', 'contentLanguage', 'contentType'] as const
const TOKENS_KEY = 'firebaseStorageDownloadTokens'

type UploadSession = { bucket: string; name: string; metadata: Record<string, unknown>; chunks: Buffer[]; size: number }

type ObjectMeta = {
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

export type StorageHandlerOptions = {
  /**
   * Decides a Firebase (`/v0`) `alt=media` download that carries no valid download token and no
   * owner credentials, as storage.rules would for the caller (the request's `Authorization`
   * header). Without it such downloads are refused with 403.
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
}

/** `mockUserToken: 'owner'` (rules-unit-testing's rules-disabled context) and admin-style owner credentials. */
const OWNER_CREDENTIALS = new Set(['Bearer owner', 'Firebase owner'])

/**
 * Cloud Storage for Firebase (`/v0`) and the GCS JSON API subset firebase-admin uses, over one store.
 * The GCS API acts as the owner, as the official emulator's does (firebase-admin sends no credentials to it).
 */
export function createStorageHandler(store: Store, baseUrl: () => string, options: StorageHandlerOptions = {}) {
  const sessions = new Map<string, UploadSession>()
  const rulesets = options.rulesets ?? new Rulesets({ firestore: null, storage: null })
  const guard = createStorageGuard(store, rulesets)

  /** An access-log entry for a client's request on a person's object (owner credentials are not logged). */
  function recordAccess(
    req: IncomingMessage,
    bucket: string,
    name: string,
    operation: 'get' | 'create' | 'update' | 'delete',
    methodName: string,
  ): void {
    const recorder = options.recorder
    if (!recorder?.isActive || OWNER_CREDENTIALS.has(String(req.headers.authorization ?? ''))) return
    let caller: Caller
    try {
      caller = callerOf(req)
    } catch {
      // An Authorization header the guard would refuse; a token download may still carry it.
      caller = { privileged: false, auth: null }
    }
    recorder.storage(caller, req, projectOfBucket(bucket), bucket, name, operation, methodName)
  }

  /** An upload through the Firebase API: `create` or `update` as the rules see it, before it is kept. */
  function authorizeUpload(
    req: IncomingMessage,
    bucket: string,
    name: string,
    data: Buffer,
    given: Record<string, unknown>,
  ): void {
    if (!guard.isActive) return
    const existing = store.getObject(bucket, name) as (StoredObject & { metadata: ObjectMeta }) | null
    const customMetadata = stringRecord(given.metadata)
    delete customMetadata[TOKENS_KEY]
    const now = new Date().toISOString()
    guard.check(req, {
      bucket,
      name,
      method: existing ? 'update' : 'create',
      resource: existing ? toStorageResource(bucket, name, existing.metadata) : null,
      requestResource: {
        name,
        bucket,
        size: data.length,
        contentType: typeof given.contentType === 'string' ? given.contentType : null,
        metadata: customMetadata,
        timeCreated: existing?.metadata.timeCreated ?? now,
        updated: now,
        md5Hash: md5(data),
        crc32c: crc32c(data),
      },
    })
  }

  /**
   * A Firebase download needs one of the object's download tokens (where that suffices), owner
   * credentials, or the rules' or authorisation hook's consent. Like the official emulator, this is
   * decided before existence, so a caller without access cannot probe which names exist.
   */
  async function mayDownload(
    req: IncomingMessage,
    url: URL,
    bucket: string,
    name: string,
    meta: ObjectMeta | undefined,
  ): Promise<boolean> {
    const token = url.searchParams.get('token')
    const hasToken = token !== null && meta?.downloadTokens.split(',').includes(token) === true
    if (hasToken && downloadTokenSuffices(name, options.tokenDownloadsNeedRules ?? [])) return true
    if (OWNER_CREDENTIALS.has(String(req.headers.authorization ?? ''))) return true
    if (guard.isActive) {
      guard.check(req, {
        bucket,
        name,
        method: 'get',
        resource: meta ? toStorageResource(bucket, name, meta) : null,
        requestResource: null,
      })
      return true
    }
    return options.authorizeRead ? await options.authorizeRead(req, bucket, name) : false
  }

  function save(bucket: string, name: string, data: Buffer, given: Record<string, unknown>): ObjectMeta {
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
    store.putObject({ bucket, name, data, metadata: meta })
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

  function gcsView(bucket: string, name: string, meta: ObjectMeta) {
    const encoded = encodeURIComponent(name)
    return {
      kind: 'storage#object',
      id: `${bucket}/${name}/${meta.generation}`,
      selfLink: `${baseUrl()}/storage/v1/b/${bucket}/o/${encoded}`,
      mediaLink: `${baseUrl()}/download/storage/v1/b/${bucket}/o/${encoded}?generation=${meta.generation}&alt=media`,
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
    store.updateObjectMetadata(bucket, name, next)
    return next
  }

  function list(bucket: string, url: URL, view: 'firebase' | 'gcs') {
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
      items: pageItems.map((item) => gcsView(bucket, item.name, item.metadata)),
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

  function startSession(bucket: string, name: string, metadata: Record<string, unknown>): string {
    const id = randomUUID()
    sessions.set(id, { bucket, name, metadata, chunks: [], size: 0 })
    return id
  }

  function objectName(url: URL, metadata: Record<string, unknown>): string {
    const name = url.searchParams.get('name') ?? (typeof metadata.name === 'string' ? metadata.name : null)
    if (!name) throw invalid('Object name is required')
    return name
  }

  async function firebaseUpload(req: IncomingMessage, url: URL, res: ServerResponse, bucket: string): Promise<void> {
    const uploadId = url.searchParams.get('upload_id')
    const command = String(req.headers['x-goog-upload-command'] ?? '')
    if (uploadId) {
      const session = sessions.get(uploadId)
      if (!session) throw new ApiError('NOT_FOUND', 'Upload session not found')
      const chunk = await readBody(req)
      if (command.includes('query')) {
        res.setHeader('x-goog-upload-status', 'active')
        res.setHeader('x-goog-upload-size-received', String(session.size))
        res.writeHead(200).end()
        return
      }
      if (command.includes('cancel')) {
        sessions.delete(uploadId)
        res.setHeader('x-goog-upload-status', 'cancelled')
        res.writeHead(200).end()
        return
      }
      const offset = Number(req.headers['x-goog-upload-offset'] ?? session.size)
      if (offset !== session.size)
        throw invalid(`Upload offset ${offset} does not match ${session.size} bytes received`)
      session.chunks.push(chunk)
      session.size += chunk.length
      if (command.includes('finalize')) {
        sessions.delete(uploadId)
        authorizeUpload(req, session.bucket, session.name, Buffer.concat(session.chunks), session.metadata)
        const existed = store.getObject(session.bucket, session.name) !== null
        const meta = save(session.bucket, session.name, Buffer.concat(session.chunks), session.metadata)
        recordAccess(req, session.bucket, session.name, existed ? 'update' : 'create', 'storage.objects.create')
        res.setHeader('x-goog-upload-status', 'final')
        sendJson(res, 200, firebaseView(session.bucket, session.name, meta))
        return
      }
      res.setHeader('x-goog-upload-status', 'active')
      res.writeHead(200).end()
      return
    }
    const body = await readBody(req)
    const protocol = String(req.headers['x-goog-upload-protocol'] ?? '')
    const contentType = String(req.headers['content-type'] ?? '')
    if (protocol === 'resumable' && command === 'start') {
      const metadata = parseJsonBuffer(body)
      const headerType = req.headers['x-goog-upload-header-content-type']
      if (metadata.contentType === undefined && typeof headerType === 'string') metadata.contentType = headerType
      const name = objectName(url, metadata)
      const id = startSession(bucket, name, metadata)
      res.setHeader('x-goog-upload-status', 'active')
      res.setHeader(
        'x-goog-upload-url',
        `${baseUrl()}/v0/b/${encodeURIComponent(bucket)}/o?name=${encodeURIComponent(name)}&upload_id=${id}&upload_protocol=resumable`,
      )
      res.setHeader('x-goog-upload-chunk-granularity', '10000')
      res.setHeader('x-goog-upload-control-url', '')
      res.writeHead(200).end()
      return
    }
    const { metadata, data } = contentType.startsWith('multipart/')
      ? multipartUpload(body, contentType)
      : { metadata: { contentType: contentType || undefined } as Record<string, unknown>, data: body }
    const name = objectName(url, metadata)
    authorizeUpload(req, bucket, name, data, metadata)
    const existed = store.getObject(bucket, name) !== null
    const meta = save(bucket, name, data, metadata)
    recordAccess(req, bucket, name, existed ? 'update' : 'create', 'storage.objects.create')
    sendJson(res, 200, firebaseView(bucket, name, meta))
  }

  async function gcsUpload(req: IncomingMessage, url: URL, res: ServerResponse, bucket: string): Promise<void> {
    const uploadType = url.searchParams.get('uploadType') ?? 'media'
    const uploadId = url.searchParams.get('upload_id')
    const body = await readBody(req)
    if (uploadId) {
      const session = sessions.get(uploadId)
      if (!session) throw new ApiError('NOT_FOUND', 'Upload session not found')
      sessions.delete(uploadId)
      const meta = save(session.bucket, session.name, Buffer.concat([...session.chunks, body]), session.metadata)
      sendJson(res, 200, gcsView(session.bucket, session.name, meta))
      return
    }
    const contentType = String(req.headers['content-type'] ?? '')
    if (uploadType === 'resumable') {
      const metadata = parseJsonBuffer(body)
      const headerType = req.headers['x-upload-content-type']
      if (metadata.contentType === undefined && typeof headerType === 'string') metadata.contentType = headerType
      const name = objectName(url, metadata)
      const id = startSession(bucket, name, metadata)
      res.setHeader(
        'location',
        `${baseUrl()}/upload/storage/v1/b/${encodeURIComponent(bucket)}/o?uploadType=resumable&name=${encodeURIComponent(name)}&upload_id=${id}`,
      )
      res.writeHead(200).end()
      return
    }
    const { metadata, data } =
      uploadType === 'multipart'
        ? multipartUpload(body, contentType)
        : { metadata: { contentType: contentType || undefined } as Record<string, unknown>, data: body }
    const name = objectName(url, metadata)
    const meta = save(bucket, name, data, metadata)
    sendJson(res, 200, gcsView(bucket, name, meta))
  }

  function sendMedia(req: IncomingMessage, res: ServerResponse, object: StoredObject & { metadata: ObjectMeta }): void {
    const { data, metadata } = object
    const headers: Record<string, string> = {
      'content-type': metadata.contentType,
      'x-goog-hash': `crc32c=${metadata.crc32c},md5=${metadata.md5Hash}`,
      ...(metadata.cacheControl ? { 'cache-control': metadata.cacheControl } : {}),
      ...(metadata.contentDisposition ? { 'content-disposition': metadata.contentDisposition } : {}),
    }
    const range = /^bytes=(\d+)-(\d*)$/.exec(String(req.headers.range ?? ''))
    if (range) {
      const start = Number(range[1])
      const end = Math.min(range[2] ? Number(range[2]) : data.length - 1, data.length - 1)
      const slice = data.subarray(start, end + 1)
      delete headers['x-goog-hash']
      res.writeHead(206, {
        ...headers,
        'content-range': `bytes ${start}-${end}/${data.length}`,
        'content-length': slice.length,
      })
      res.end(slice)
      return
    }
    res.writeHead(200, { ...headers, 'content-length': data.length })
    res.end(data)
  }

  return async function handle(req: IncomingMessage, url: URL, res: ServerResponse): Promise<boolean> {
    const path = url.pathname
    if (path === '/internal/reset' && req.method === 'POST') {
      store.clearObjects()
      sessions.clear()
      res.writeHead(200).end()
      return true
    }
    // The Storage emulator's rule loading (@firebase/rules-unit-testing): {rules: {files: [{name, content}]}}.
    if (path === '/internal/setRules' && (req.method === 'PUT' || req.method === 'POST')) {
      rulesets.setFromRequest('firebase.storage', await readJson(req))
      res.writeHead(200).end()
      return true
    }
    const firebase = /^\/v0\/b\/([^/]+)\/o(?:\/([^/]+))?\/?$/.exec(path)
    const gcsUploadMatch = /^\/upload\/storage\/v1\/b\/([^/]+)\/o\/?$/.exec(path)
    const gcs = /^(?:\/storage\/v1|\/download\/storage\/v1)?\/b\/([^/]+)\/o(?:\/([^/]+))?\/?$/.exec(path)
    const match = firebase ?? gcsUploadMatch ?? gcs
    if (!match) return false
    let bucket: string
    let name: string | undefined
    try {
      bucket = decodeURIComponent(match[1] as string)
      name = match[2] === undefined ? undefined : decodeURIComponent(match[2])
    } catch {
      throw invalid('Malformed path encoding')
    }
    if (gcsUploadMatch) {
      if (req.method !== 'POST' && req.method !== 'PUT') return false
      await gcsUpload(req, url, res, bucket)
      return true
    }
    const view = firebase ? 'firebase' : 'gcs'
    if (name === undefined) {
      if (req.method === 'GET') {
        if (view === 'firebase')
          guard.check(req, {
            bucket,
            name: url.searchParams.get('prefix') ?? '',
            method: 'list',
            resource: null,
            requestResource: null,
          })
        sendJson(res, 200, list(bucket, url, view))
        return true
      }
      if (req.method === 'POST' && firebase) {
        await firebaseUpload(req, url, res, bucket)
        return true
      }
      return false
    }
    switch (req.method) {
      case 'GET': {
        const media = url.searchParams.get('alt') === 'media'
        const stored = store.getObject(bucket, name) as (StoredObject & { metadata: ObjectMeta }) | null
        if (media && view === 'firebase' && !(await mayDownload(req, url, bucket, name, stored?.metadata)))
          throw new ApiError('PERMISSION_DENIED', 'Permission denied. No READ permission.')
        // Metadata (which holds the download tokens) is a read as the rules see it.
        if (!media && view === 'firebase')
          guard.check(req, {
            bucket,
            name,
            method: 'get',
            resource: stored ? toStorageResource(bucket, name, stored.metadata) : null,
            requestResource: null,
          })
        if (!stored) throw new ApiError('NOT_FOUND', `No such object: ${bucket}/${name}`)
        const object = stored
        if (view === 'firebase') recordAccess(req, bucket, name, 'get', 'storage.objects.get')
        if (media) sendMedia(req, res, object)
        else
          sendJson(
            res,
            200,
            view === 'firebase' ? firebaseView(bucket, name, object.metadata) : gcsView(bucket, name, object.metadata),
          )
        return true
      }
      case 'PATCH':
      case 'PUT': {
        const patch = parseJsonBuffer(await readBody(req))
        const meta = updateMetadata(bucket, name, patch, (next, current) => {
          if (view === 'firebase')
            guard.check(req, {
              bucket,
              name,
              method: 'update',
              resource: toStorageResource(bucket, name, current),
              requestResource: toStorageResource(bucket, name, next),
            })
        })
        if (view === 'firebase') recordAccess(req, bucket, name, 'update', 'storage.objects.update')
        sendJson(res, 200, view === 'firebase' ? firebaseView(bucket, name, meta) : gcsView(bucket, name, meta))
        return true
      }
      case 'DELETE':
        if (view === 'firebase') {
          const existing = store.getObject(bucket, name) as (StoredObject & { metadata: ObjectMeta }) | null
          guard.check(req, {
            bucket,
            name,
            method: 'delete',
            resource: existing ? toStorageResource(bucket, name, existing.metadata) : null,
            requestResource: null,
          })
        }
        if (!store.deleteObject(bucket, name)) throw new ApiError('NOT_FOUND', `No such object: ${bucket}/${name}`)
        if (view === 'firebase') recordAccess(req, bucket, name, 'delete', 'storage.objects.delete')
        res.writeHead(204).end()
        return true
      default:
        return false
    }
  }
}

function stringRecord(value: unknown): Record<string, string> {
  if (value === undefined || value === null) return {}
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid('metadata must be a map of strings')
  const out: Record<string, string> = {}
  for (const [key, item] of Object.entries(value)) if (item !== null && item !== undefined) out[key] = String(item)
  return out
}
