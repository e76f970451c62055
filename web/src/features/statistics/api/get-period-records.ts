import { NOTES, REGISTRATIONS } from '@bosted/domain/paths'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { toNote } from '../../notes/api/note-document.ts'
import { toRegistration } from '../../registrations/api/registration-document.ts'
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
): Promise<StatRegistrationRow[]> {
  const { lite, query } = await periodQuery(REGISTRATIONS, locationId, from, to)
  const snapshot = await lite.getDocs(query)
  return snapshot.docs.map(toRegistration).map((r) => ({
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
}

/** A location's diary entries from `from` to `to` (day, person and time only are kept), in one request. */
export async function getPeriodNotes(locationId: string, from: string, to: string): Promise<StatNote[]> {
  const { lite, query } = await periodQuery(NOTES, locationId, from, to)
  const snapshot = await lite.getDocs(query)
  return snapshot.docs
    .map(toNote)
    .map((note) => ({ personId: note.personId, day: note.day, createdAt: note.createdAt }))
}

/** How many diary entries a location has from `from` to `to`: an aggregation, no entries transferred. */
export async function countPeriodNotes(locationId: string, from: string, to: string): Promise<number> {
  const { lite, query } = await periodQuery(NOTES, locationId, from, to)
  return (await lite.getCount(query)).data().count
}
