import type { Ctx } from '../../http/core.ts'
import { jsonResponse } from '../../http/core.ts'
import { ApiError, invalid } from '../../http/errors.ts'
import { readBody } from '../../http/server.ts'
import type { StorageService } from '../service.ts'

/** `POST /v0/b/{bucket}/o`: a simple, multipart or resumable upload through the Firebase API. */
export async function firebaseUpload(s: StorageService, c: Ctx, bucket: string): Promise<Response> {
  const req = c.env.incoming
  const res = c.env.outgoing
  const url = c.get('url')
  const uploadId = url.searchParams.get('upload_id')
  const command = String(req.headers['x-goog-upload-command'] ?? '')
  if (uploadId) {
    const session = s.sessions.get(uploadId)
    if (!session) throw new ApiError('NOT_FOUND', 'Upload session not found')
    const chunk = await readBody(req)
    // Nothing is read or kept before finalize, where the rules decide.
    c.set('rulesDecided', true)
    if (command.includes('query')) {
      res.setHeader('x-goog-upload-status', 'active')
      res.setHeader('x-goog-upload-size-received', String(session.size))
      return c.body(null, 200)
    }
    if (command.includes('cancel')) {
      s.sessions.delete(uploadId)
      res.setHeader('x-goog-upload-status', 'cancelled')
      return c.body(null, 200)
    }
    const offset = Number(req.headers['x-goog-upload-offset'] ?? session.size)
    if (offset !== session.size) throw invalid(`Upload offset ${offset} does not match ${session.size} bytes received`)
    session.chunks.push(chunk)
    session.size += chunk.length
    if (command.includes('finalize')) {
      s.sessions.delete(uploadId)
      s.authorizeUpload(c, session.bucket, session.name, Buffer.concat(session.chunks), session.metadata)
      const existed = s.store.getObject(session.bucket, session.name) !== null
      const meta = s.loggedWrite(
        c,
        session.bucket,
        session.name,
        existed ? 'update' : 'create',
        'storage.objects.create',
        (stamp) => s.save(session.bucket, session.name, Buffer.concat(session.chunks), session.metadata, stamp),
      )
      res.setHeader('x-goog-upload-status', 'final')
      return jsonResponse(c, 200, s.firebaseView(session.bucket, session.name, meta))
    }
    res.setHeader('x-goog-upload-status', 'active')
    return c.body(null, 200)
  }
  const body = await readBody(req)
  const protocol = String(req.headers['x-goog-upload-protocol'] ?? '')
  const contentType = String(req.headers['content-type'] ?? '')
  if (protocol === 'resumable' && command === 'start') {
    c.set('rulesDecided', true)
    const metadata = s.parseJsonBuffer(body)
    const headerType = req.headers['x-goog-upload-header-content-type']
    if (metadata.contentType === undefined && typeof headerType === 'string') metadata.contentType = headerType
    const name = s.objectName(url, metadata)
    const id = s.startSession(bucket, name, metadata)
    res.setHeader('x-goog-upload-status', 'active')
    res.setHeader(
      'x-goog-upload-url',
      `${s.baseUrl(c)}/v0/b/${encodeURIComponent(bucket)}/o?name=${encodeURIComponent(name)}&upload_id=${id}&upload_protocol=resumable`,
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
