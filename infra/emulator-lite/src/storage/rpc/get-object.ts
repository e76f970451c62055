import { ruledCaller } from '../../firestore/service.ts'
import type { Ctx } from '../../http/core.ts'
import { jsonResponse } from '../../http/core.ts'
import { ApiError } from '../../http/errors.ts'
import { toStorageResource } from '../../security/storage-guard.ts'
import type { StoredObject } from '../../store/store.ts'
import type { ObjectMeta, StorageService, StorageView } from '../service.ts'

/** `GET …/o/{name}`: an object's metadata, or its bytes with `alt=media` (Range honoured). */
export async function getObject(
  s: StorageService,
  c: Ctx,
  view: StorageView,
  bucket: string,
  name: string,
): Promise<Response> {
  const media = c.get('url').searchParams.get('alt') === 'media'
  const stored = s.store.getObject(bucket, name) as (StoredObject & { metadata: ObjectMeta }) | null
  if (media && view === 'firebase' && !(await s.mayDownload(c, bucket, name, stored?.metadata)))
    throw new ApiError('PERMISSION_DENIED', 'Permission denied. No READ permission.')
  // Metadata (which holds the download tokens) is a read as the rules see it.
  if (!media && view === 'firebase')
    s.guard.check(ruledCaller(c), {
      bucket,
      name,
      method: 'get',
      resource: stored ? toStorageResource(bucket, name, stored.metadata) : null,
      requestResource: null,
    })
  if (!stored) throw new ApiError('NOT_FOUND', `No such object: ${bucket}/${name}`)
  if (view === 'firebase') s.recordAccess(c, bucket, name, 'get', 'storage.objects.get')
  if (media) return s.media(c, stored)
  return jsonResponse(
    c,
    200,
    view === 'firebase' ? s.firebaseView(bucket, name, stored.metadata) : s.gcsView(c, bucket, name, stored.metadata),
  )
}
