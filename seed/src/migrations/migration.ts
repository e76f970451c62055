import type { Firestore } from 'firebase-admin/firestore'

export type MigrationResult = { scanned: number; updated: number; detail?: string }

/** A data migration: idempotent, so running it twice changes nothing the second time. */
export type Migration = {
  id: string
  description: string
  run(db: Firestore, now: Date): Promise<MigrationResult>
}
