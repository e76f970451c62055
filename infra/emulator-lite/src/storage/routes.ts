import type { Ctx, Route } from '../http/core.ts'
import { invalid } from '../http/errors.ts'
import { projectOfBucket } from '../security/storage-guard.ts'
import type { Store } from '../store/store.ts'
import { deleteObject } from './rpc/delete-object.ts'
import { firebaseUpload } from './rpc/firebase-upload.ts'
import { gcsUpload } from './rpc/gcs-upload.ts'
import { getObject } from './rpc/get-object.ts'
import { reset, setRules } from './rpc/internal.ts'
import { listObjects } from './rpc/list-objects.ts'
import { updateObject } from './rpc/update-object.ts'
import { createStorageService, type StorageOptions, type StorageService, type StorageView } from './service.ts'

export type { StorageOptions } from './service.ts'

const FIREBASE = /^\/v0\/b\/([^/]+)\/o(?:\/([^/]+))?\/?$/
const GCS_UPLOAD = /^\/upload\/storage\/v1\/b\/([^/]+)\/o\/?$/
const GCS = /^(?:\/storage\/v1|\/download\/storage\/v1)?\/b\/([^/]+)\/o(?:\/([^/]+))?\/?$/

/** Bucket and object name of a Storage path, decoded. */
function target(c: Ctx, pattern: RegExp): { bucket: string; name: string | undefined } {
  const match = pattern.exec(c.get('url').pathname)
  try {
    return {
      bucket: decodeURIComponent(match?.[1] ?? ''),
      name: match?.[2] === undefined ? undefined : decodeURIComponent(match[2]),
    }
  } catch {
    throw invalid('Malformed path encoding')
  }
}

const bucketProject = (pattern: RegExp) => (c: Ctx) => {
  try {
    return projectOfBucket(decodeURIComponent(pattern.exec(c.get('url').pathname)?.[1] ?? ''))
  } catch {
    return ''
  }
}

type ObjectRpc = (
  s: StorageService,
  c: Ctx,
  view: StorageView,
  bucket: string,
  name: string,
) => Response | Promise<Response>

/**
 * Cloud Storage for Firebase (`/v0`, browsers, under storage.rules) and the GCS JSON API subset
 * firebase-admin uses (management: the admin listener), over one store, with the emulator's
 * `/internal` endpoints (management).
 */
export function storageRoutes(store: Store, options: StorageOptions = {}): Route[] {
  const s = createStorageService(store, options)
  const firebase = { service: 'storage' as const, rules: 'storage' as const, project: bucketProject(FIREBASE) }
  const gcs = { service: 'storage' as const, management: true, project: bucketProject(GCS) }
  const objectRoutes = (view: StorageView, prefix: string, base: typeof firebase | typeof gcs): Route[] =>
    (
      [
        ['GET', getObject],
        ['PATCH', updateObject],
        ['PUT', updateObject],
        ['DELETE', deleteObject],
      ] as [string, ObjectRpc][]
    ).map(([method, rpc]) => ({
      ...base,
      name: `storage.${view}.${rpc.name}`,
      method,
      path: `${prefix}/b/:bucket/o/:name{[^/]+/?}`,
      handler: (c: Ctx) => {
        const { bucket, name } = target(c, view === 'firebase' ? FIREBASE : GCS)
        return rpc(s, c, view, bucket, name as string)
      },
    }))
  const list = (view: StorageView, prefix: string, base: typeof firebase | typeof gcs): Route => ({
    ...base,
    name: `storage.${view}.listObjects`,
    method: 'GET',
    path: `${prefix}/b/:bucket/:o{o/?}`,
    handler: (c) => listObjects(s, c, view, target(c, view === 'firebase' ? FIREBASE : GCS).bucket),
  })
  const gcsPrefixes = ['/storage/v1', '/download/storage/v1', '']
  return [
    list('firebase', '/v0', firebase),
    {
      ...firebase,
      name: 'storage.firebase.upload',
      method: 'POST',
      path: '/v0/b/:bucket/:o{o/?}',
      handler: (c) => firebaseUpload(s, c, target(c, FIREBASE).bucket),
    },
    ...objectRoutes('firebase', '/v0', firebase),
    ...['POST', 'PUT'].map(
      (method): Route => ({
        ...gcs,
        project: bucketProject(GCS_UPLOAD),
        name: `storage.gcs.upload.${method}`,
        method,
        path: '/upload/storage/v1/b/:bucket/:o{o/?}',
        handler: (c) => gcsUpload(s, c, target(c, GCS_UPLOAD).bucket),
      }),
    ),
    ...gcsPrefixes.flatMap((prefix) => [list('gcs', prefix, gcs), ...objectRoutes('gcs', prefix, gcs)]),
    {
      service: 'storage',
      management: true,
      name: 'storage.internal.reset',
      method: 'POST',
      path: '/internal/reset',
      handler: (c) => reset(s, c),
    },
    ...['PUT', 'POST'].map(
      (method): Route => ({
        service: 'storage',
        management: true,
        name: `storage.internal.setRules.${method}`,
        method,
        path: '/internal/setRules',
        handler: (c) => setRules(s, c),
      }),
    ),
  ]
}
