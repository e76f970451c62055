import { type Registration, RegistrationSchema } from '@bosted/domain/answer'
import { type Parsed, parseRecords } from '../../../lib/parse-records.ts'

/** A registration as stored, with its document id and its person's id (from the path). */
export type StoredRegistration = Registration & { id: string }

type Snapshot = { id: string; data(): Record<string, unknown> }

/** Parses a registration document with the domain schema; throws on a document that does not fit. */
export function toRegistration(snapshot: Snapshot): StoredRegistration {
  return { ...RegistrationSchema.parse(snapshot.data()), id: snapshot.id }
}

/** A list of registration documents, each parsed on its own (one that does not fit is left out and counted). */
export function toRegistrations(snapshots: readonly Snapshot[]): Parsed<StoredRegistration> {
  return parseRecords('registrations', snapshots, toRegistration)
}
