import { ruledCaller } from '../../firestore/service.ts'
import type { Ctx } from '../../http/core.ts'
import { jsonResponse } from '../../http/core.ts'
import type { StorageService, StorageView } from '../service.ts'

/** `GET …/b/{bucket}/o`: a page of names (Firebase) or objects (GCS), with prefixes. */
export function listObjects(
  s: StorageService,
  c: Ctx,
  view: StorageView,
  bucket: string,
): Response | Promise<Response> {
  c.env.incoming.resume()
  if (view === 'firebase')
    s.guard.check(ruledCaller(c), {
      bucket,
      name: c.get('url').searchParams.get('prefix') ?? '',
      method: 'list',
      resource: null,
      requestResource: null,
    })
  return jsonResponse(c, 200, s.list(c, bucket, c.get('url'), view))
}
