import { ruledCaller } from '../../firestore/service.ts'
import type { Ctx } from '../../http/core.ts'
import { jsonResponse } from '../../http/core.ts'
import { readBody } from '../../http/server.ts'
import { toStorageResource } from '../../security/storage-guard.ts'
import type { WriteStamp } from '../../store/store.ts'
import type { StorageService, StorageView } from '../service.ts'

/** `PATCH|PUT …/o/{name}`: changes an object's metadata, as the rules allow an update. */
export async function updateObject(
  s: StorageService,
  c: Ctx,
  view: StorageView,
  bucket: string,
  name: string,
): Promise<Response> {
  const patch = s.parseJsonBuffer(await readBody(c.env.incoming))
  const caller = ruledCaller(c)
  const update = (stamp?: WriteStamp) =>
    s.updateMetadata(
      bucket,
      name,
      patch,
      (next, current) => {
        if (view === 'firebase')
          s.guard.check(caller, {
            bucket,
            name,
            method: 'update',
            resource: toStorageResource(bucket, name, current),
            requestResource: toStorageResource(bucket, name, next),
          })
      },
      stamp,
    )
  // A client's change of a person's object and its access-log entry: one transaction.
  const meta =
    view === 'firebase' ? s.loggedWrite(c, bucket, name, 'update', 'storage.objects.update', update) : update()
  return jsonResponse(
    c,
    200,
    view === 'firebase' ? s.firebaseView(bucket, name, meta) : s.gcsView(c, bucket, name, meta),
  )
}
