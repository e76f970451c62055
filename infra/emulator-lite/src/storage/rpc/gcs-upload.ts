import type { Ctx } from '../../http/core.ts'
import { jsonResponse } from '../../http/core.ts'
import { ApiError } from '../../http/errors.ts'
import { readBody } from '../../http/server.ts'
import type { StorageService } from '../service.ts'

/** `POST|PUT /upload/storage/v1/b/{bucket}/o`: the GCS JSON API's media, multipart and resumable uploads. */
export async function gcsUpload(s: StorageService, c: Ctx, bucket: string): Promise<Response> {
  const req = c.env.incoming
  const url = c.get('url')
  const uploadType = url.searchParams.get('uploadType') ?? 'media'
  const uploadId = url.searchParams.get('upload_id')
  const body = await readBody(req)
  if (uploadId) {
    const session = s.sessions.get(uploadId)
    if (!session) throw new ApiError('NOT_FOUND', 'Upload session not found')
    s.sessions.delete(uploadId)
    const meta = s.save(session.bucket, session.name, Buffer.concat([...session.chunks, body]), session.metadata)
    return jsonResponse(c, 200, s.gcsView(c, session.bucket, session.name, meta))
  }
  const contentType = String(req.headers['content-type'] ?? '')
  if (uploadType === 'resumable') {
    const metadata = s.parseJsonBuffer(body)
    const headerType = req.headers['x-upload-content-type']
    if (metadata.contentType === undefined && typeof headerType === 'string') metadata.contentType = headerType
    const name = s.objectName(url, metadata)
    const id = s.startSession(bucket, name, metadata)
    c.env.outgoing.setHeader(
      'location',
      `${s.baseUrl(c)}/upload/storage/v1/b/${encodeURIComponent(bucket)}/o?uploadType=resumable&name=${encodeURIComponent(name)}&upload_id=${id}`,
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
