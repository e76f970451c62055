import { type Registration, RegistrationSchema } from '@bosted/domain/answer'

/** A registration as stored, with its document id and its person's id (from the path). */
export type StoredRegistration = Registration & { id: string }

type Snapshot = { id: string; data(): Record<string, unknown> }

/** Parses a registration document with the domain schema; throws on a document that does not fit. */
export function toRegistration(snapshot: Snapshot): StoredRegistration {
  return { ...RegistrationSchema.parse(snapshot.data()), id: snapshot.id }
}
