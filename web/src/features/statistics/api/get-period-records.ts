import { RegistrationSchema } from '@bosted/domain/answer'
import { REGISTRATIONS } from '@bosted/domain/paths'
import type { StatRegistration } from '@bosted/domain/statistics'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { type Parsed, parseDocuments } from '../../../lib/parse-records.ts'

export type StatRegistrationRow = StatRegistration & {
  comment?: string | undefined
  createdAt: string
  createdByName?: string | undefined
}

/**
 * A location's registrations from `from` to `to`, whole, for the registrations CSV (read when it is
 * asked for): `collectionGroup('registrations') where locationId == L and from <= day <= to`, the
 * rules' constraint.
 */
export async function getPeriodRegistrations(
  locationId: string,
  from: string,
  to: string,
): Promise<Parsed<StatRegistrationRow>> {
  const [db, { collectionGroup, getDocs, query, where }] = await Promise.all([getDb(), firestoreLite()])
  const snapshot = await getDocs(
    query(
      collectionGroup(db, REGISTRATIONS),
      where('locationId', '==', locationId),
      where('day', '>=', from),
      where('day', '<=', to),
    ),
  )
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
