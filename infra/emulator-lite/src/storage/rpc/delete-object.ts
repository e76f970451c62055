import { ruledCaller } from '../../firestore/service.ts'
import type { Ctx } from '../../http/core.ts'
import { ApiError } from '../../http/errors.ts'
import { toStorageResource } from '../../security/storage-guard.ts'
import type { StoredObject } from '../../store/store.ts'
import type { ObjectMeta, StorageService, StorageView } from '../service.ts'

/** `DELETE …/o/{name}`. */
export function deleteObject(s: StorageService, c: Ctx, view: StorageView, bucket: string, name: string): Response {
  c.env.incoming.resume()
  if (view === 'firebase') {
    const existing = s.store.getObject(bucket, name) as (StoredObject & { metadata: ObjectMeta }) | null
    s.guard.check(ruledCaller(c), {
      bucket,
      name,
      method: 'delete',
      resource: existing ? toStorageResource(bucket, name, existing.metadata) : null,
      requestResource: null,
    })
  }
  const remove = () => {
    if (!s.store.deleteObject(bucket, name)) throw new ApiError('NOT_FOUND', `No such object: ${bucket}/${name}`)
  }
  // A client's delete of a person's object and its access-log entry: one transaction.
  if (view === 'firebase') s.loggedWrite(c, bucket, name, 'delete', 'storage.objects.delete', remove)
  else remove()
  return c.body(null, 204)
}
