import type { IncomingHttpHeaders } from 'node:http'
import type { Ctx } from '../../http/core.ts'
import { jsonResponse } from '../../http/core.ts'
import { ApiError, invalid } from '../../http/errors.ts'
import { readBody } from '../../http/server.ts'
import type { StorageService } from '../service.ts'
import type { UploadSession } from '../upload-sessions.ts'

/** The size a resumable upload declares at its start (`header`), or null when it declares none. */
export function declaredSize(headers: IncomingHttpHeaders, header: string): number | null {
  const value = headers[header]
  if (value === undefined) return null
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value.trim())) throw invalid(`Invalid ${header}`)
  return Number(value.trim())
}

/** Ends a session with its last bytes: the size it declared, the rules again, then the object is kept. */
function finalize(s: StorageService, c: Ctx, session: UploadSession): Response | Promise<Response> {
  try {
    if (session.declared !== null && session.size !== session.declared) {
      throw invalid(`Upload has ${session.size} bytes; its start declared ${session.declared}`)
    }
    const data = s.uploads.read(session)
    s.authorizeUpload(c, session.bucket, session.name, data, session.metadata)
    const existed = s.store.getObject(session.bucket, session.name) !== null
    const meta = s.loggedWrite(
      c,
      session.bucket,
      session.name,
      existed ? 'update' : 'create',
      'storage.objects.create',
      (stamp) => s.save(session.bucket, session.name, data, session.metadata, stamp),
    )
    c.env.outgoing.setHeader('x-goog-upload-status', 'final')
    return jsonResponse(c, 200, s.firebaseView(session.bucket, session.name, meta))
  } finally {
    s.uploads.end(session)
  }
}

/** `POST /v0/b/{bucket}/o`: a simple, multipart or resumable upload through the Firebase API. */
export async function firebaseUpload(s: StorageService, c: Ctx, bucket: string): Promise<Response> {
  const req = c.env.incoming
  const res = c.env.outgoing
  const url = c.get('url')
  const uploadId = url.searchParams.get('upload_id')
  const command = String(req.headers['x-goog-upload-command'] ?? '')
  if (uploadId) {
    // The rules decided at the start and decide again at finalize; a chunk only adds bytes.
    c.set('rulesDecided', true)
    const session = s.uploads.get(uploadId)
    if (!session) throw new ApiError('NOT_FOUND', 'Upload session not found')
    if (command.includes('query')) {
      req.resume()
      res.setHeader('x-goog-upload-status', 'active')
      res.setHeader('x-goog-upload-size-received', String(session.size))
      return c.body(null, 200)
    }
    if (command.includes('cancel')) {
      req.resume()
      s.uploads.end(session)
      res.setHeader('x-goog-upload-status', 'cancelled')
      return c.body(null, 200)
    }
    const offset = Number(req.headers['x-goog-upload-offset'] ?? session.size)
    if (offset !== session.size) throw invalid(`Upload offset ${offset} does not match ${session.size} bytes received`)
    await s.uploads.append(session, req)
    if (command.includes('finalize')) return finalize(s, c, session)
    res.setHeader('x-goog-upload-status', 'active')
    return c.body(null, 200)
  }
  const body = await readBody(req)
  const protocol = String(req.headers['x-goog-upload-protocol'] ?? '')
  const contentType = String(req.headers['content-type'] ?? '')
  if (protocol === 'resumable' && command === 'start') {
    const metadata = s.parseJsonBuffer(body)
    const headerType = req.headers['x-goog-upload-header-content-type']
    if (metadata.contentType === undefined && typeof headerType === 'string') metadata.contentType = headerType
    const name = s.objectName(url, metadata)
    const declared = declaredSize(req.headers, 'x-goog-upload-header-content-length')
    // Authorised now, with what the start says (an undeclared size counts as the largest allowed),
    // so nothing the rules would refuse is ever received.
    s.authorizeUpload(c, bucket, name, { size: declared ?? s.uploads.maxBytes }, metadata)
    const session = s.startSession(c, bucket, name, metadata, declared)
    res.setHeader('x-goog-upload-status', 'active')
    res.setHeader(
      'x-goog-upload-url',
      `${s.baseUrl(c)}/v0/b/${encodeURIComponent(bucket)}/o?name=${encodeURIComponent(name)}&upload_id=${session.id}&upload_protocol=resumable`,
    )
    res.setHeader('x-goog-upload-chunk-granularity', '10000')
    res.setHeader('x-goog-upload-control-url', '')
    return c.body(null, 200)
  }
  const { metadata, data } = contentType.startsWith('multipart/')
    ? s.multipartUpload(body, contentType)
    : { metadata: { contentType: contentType || undefined } as Record<string, unknown>, data: body }
  const name = s.objectName(url, metadata)
  s.authorizeUpload(c, bucket, name, data, metadata)
  const existed = s.store.getObject(bucket, name) !== null
  const meta = s.loggedWrite(c, bucket, name, existed ? 'update' : 'create', 'storage.objects.create', (stamp) =>
    s.save(bucket, name, data, metadata, stamp),
  )
  return jsonResponse(c, 200, s.firebaseView(bucket, name, meta))
}
