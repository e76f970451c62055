import { createHash } from 'node:crypto'
import { mapLimit } from '../lib/concurrency.ts'
import type { Bucket } from '../lib/firebase.ts'
import type { PlannedFile } from '../plan/build-dataset.ts'
import type { StepResult } from './step.ts'

const TOKENS_KEY = 'firebaseStorageDownloadTokens'

/**
 * Uploads avatars and logos whose bytes, type or download token differ from the plan. The token is
 * fixed per path, so the URLs stored in Firestore stay valid across runs.
 */
export async function syncFiles(bucket: Bucket, planned: readonly PlannedFile[]): Promise<StepResult> {
  const started = Date.now()
  const [files] = await bucket.getFiles()
  const existing = new Map(files.map((file) => [file.name, file.metadata]))
  const changed = planned.filter((file) => {
    const current = existing.get(file.path)
    const md5 = createHash('md5').update(file.content).digest('base64')
    return (
      current?.md5Hash !== md5 ||
      current.contentType !== file.contentType ||
      current.metadata?.[TOKENS_KEY] !== file.token
    )
  })
  await mapLimit(changed, 8, (file) =>
    bucket.file(file.path).save(file.content, {
      resumable: false,
      contentType: file.contentType,
      metadata: { contentType: file.contentType, metadata: { [TOKENS_KEY]: file.token } },
    }),
  )
  return {
    name: 'storage files',
    total: planned.length,
    written: changed.length,
    unchanged: planned.length - changed.length,
    ms: Date.now() - started,
  }
}
