import type { Ctx } from '../../http/core.ts'
import { jsonResponse } from '../../http/core.ts'
import { ApiError, invalid } from '../../http/errors.ts'
import { readBody } from '../../http/server.ts'
import type { StorageService } from '../service.ts'
import { declaredSize } from './firebase-upload.ts'

/** `POST|PUT /upload/storage/v1/b/{bucket}/o`: the GCS JSON API's media, multipart and resumable uploads. */
export async function gcsUpload(s: StorageService, c: Ctx, bucket: string): Promise<Response> {
  const req = c.env.incoming
  const url = c.get('url')
  const uploadType = url.searchParams.get('uploadType') ?? 'media'
  const uploadId = url.searchParams.get('upload_id')
  if (uploadId) {
    const session = s.uploads.get(uploadId)
    if (!session) throw new ApiError('NOT_FOUND', 'Upload session not found')
    // firebase-admin sends the rest of the object in one request: it ends the session.
    try {
      await s.uploads.append(session, req)
      if (session.declared !== null && session.size !== session.declared) {
        throw invalid(`Upload has ${session.size} bytes; its start declared ${session.declared}`)
      }
      const meta = s.save(session.bucket, session.name, s.uploads.read(session), session.metadata)
      return jsonResponse(c, 200, s.gcsView(c, session.bucket, session.name, meta))
    } finally {
      s.uploads.end(session)
    }
  }
  const body = await readBody(req)
  const contentType = String(req.headers['content-type'] ?? '')
  if (uploadType === 'resumable') {
    const metadata = s.parseJsonBuffer(body)
    const headerType = req.headers['x-upload-content-type']
    if (metadata.contentType === undefined && typeof headerType === 'string') metadata.contentType = headerType
    const name = s.objectName(url, metadata)
    const session = s.startSession(c, bucket, name, metadata, declaredSize(req.headers, 'x-upload-content-length'))
    c.env.outgoing.setHeader(
      'location',
      `${s.baseUrl(c)}/upload/storage/v1/b/${encodeURIComponent(bucket)}/o?uploadType=resumable&name=${encodeURIComponent(name)}&upload_id=${session.id}`,
    )
    return c.body(null, 200)
  }
  const { metadata, data } =
    uploadType === 'multipart'
      ? s.multipartUpload(body, contentType)
      : { metadata: { contentType: contentType || undefined } as Record<string, unknown>, data: body }
  const name = s.objectName(url, metadata)
  const meta = s.save(bucket, name, data, metadata)
  return jsonResponse(c, 200, s.gcsView(c, bucket, name, meta))
}
