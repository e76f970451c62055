import { NoteSchema, RegistrationSchema } from '@bosted/domain/answer'
import { NOTES, REGISTRATIONS } from '@bosted/domain/paths'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { type Parsed, parseDocuments } from '../../../lib/parse-records.ts'
import type { StatNote, StatRegistration } from '../compute.ts'

/** A location's records in a collection group from `from` to `to` (days): the rules' `locationId` constraint. */
async function periodQuery(collectionId: string, locationId: string, from: string, to: string) {
  const [db, lite] = await Promise.all([getDb(), firestoreLite()])
  const { collectionGroup, query, where } = lite
  const built = query(
    collectionGroup(db, collectionId),
    where('locationId', '==', locationId),
    where('day', '>=', from),
    where('day', '<=', to),
  )
  return { lite, query: built }
}

export type StatRegistrationRow = StatRegistration & {
  comment?: string | undefined
  createdAt: string
  createdByName?: string | undefined
}

/**
 * A location's registrations from `from` to `to` in one request:
 * `collectionGroup('registrations') where locationId == L and from <= day <= to` (the rules' constraint).
 */
export async function getPeriodRegistrations(
  locationId: string,
  from: string,
  to: string,
): Promise<Parsed<StatRegistrationRow>> {
  const { lite, query } = await periodQuery(REGISTRATIONS, locationId, from, to)
  const snapshot = await lite.getDocs(query)
  const { items, skipped } = parseDocuments(REGISTRATIONS, RegistrationSchema, snapshot.docs)
  const rows = items.map((r) => ({
    personId: r.personId,
    day: r.day,
    answerId: r.answerId,
    text: r.text,
    value: r.value,
    entity: r.entity,
    comment: r.comment,
    createdAt: r.createdAt,
    createdByName: r.createdByName,
  }))
  return { items: rows, skipped }
}

/** A location's diary entries from `from` to `to` (day, person and time only are kept), in one request. */
export async function getPeriodNotes(locationId: string, from: string, to: string): Promise<Parsed<StatNote>> {
  const { lite, query } = await periodQuery(NOTES, locationId, from, to)
  const snapshot = await lite.getDocs(query)
  const { items, skipped } = parseDocuments(NOTES, NoteSchema, snapshot.docs)
  return {
    items: items.map((note) => ({ personId: note.personId, day: note.day, createdAt: note.createdAt })),
    skipped,
  }
}

/** How many diary entries a location has from `from` to `to`: an aggregation, no entries transferred. */
export async function countPeriodNotes(locationId: string, from: string, to: string): Promise<number> {
  const { lite, query } = await periodQuery(NOTES, locationId, from, to)
  return (await lite.getCount(query)).data().count
}
