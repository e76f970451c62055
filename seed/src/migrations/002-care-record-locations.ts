import { LOCATIONS, NOTES, PERSONS, REGISTRATIONS } from '@bosted/domain'
import type { DocumentReference } from 'firebase-admin/firestore'
import { chunk, mapLimit } from '../lib/concurrency.ts'
import type { Migration } from './migration.ts'

type Patch = { ref: DocumentReference; patch: Record<string, string> }

/**
 * The security rules decide reads by location (docs/decisions/0004-access-model.md): a person gets
 * the id of the location whose persons[] holds them, and each of their registrations and notes gets
 * personId and that locationId. Only missing or outdated fields are written, so a second run writes
 * nothing. A person in no location's persons[] is left without one (only an admin can read them).
 */
export const careRecordLocations: Migration = {
  id: '002-care-record-locations',
  description: 'persons get locationId; registrations and notes get personId and locationId',
  async run(db, _now) {
    const locationOf = new Map<string, string>()
    for (const location of (await db.collection(LOCATIONS).get()).docs) {
      const persons: unknown = location.get('persons')
      if (!Array.isArray(persons)) continue
      for (const personId of persons) {
        // The first location that lists a person keeps them; ids sort the same every run.
        if (typeof personId === 'string' && !locationOf.has(personId)) locationOf.set(personId, location.id)
      }
    }
    const patches: Patch[] = []
    let scanned = 0
    for (const person of (await db.collection(PERSONS).get()).docs) {
      scanned += 1
      const locationId = locationOf.get(person.id)
      if (locationId === undefined) continue
      if (person.get('locationId') !== locationId) patches.push({ ref: person.ref, patch: { locationId } })
    }
    for (const group of [REGISTRATIONS, NOTES]) {
      for (const record of (await db.collectionGroup(group).get()).docs) {
        const personRef = record.ref.parent.parent
        if (personRef === null || personRef.parent.id !== PERSONS) continue
        scanned += 1
        const locationId = locationOf.get(personRef.id)
        if (locationId === undefined) continue
        const patch: Record<string, string> = {}
        if (record.get('personId') !== personRef.id) patch.personId = personRef.id
        if (record.get('locationId') !== locationId) patch.locationId = locationId
        if (Object.keys(patch).length > 0) patches.push({ ref: record.ref, patch })
      }
    }
    await mapLimit(chunk(patches, 500), 3, async (part) => {
      const batch = db.batch()
      for (const { ref, patch } of part) batch.update(ref, patch)
      await batch.commit()
    })
    return { scanned, updated: patches.length, detail: `for ${locationOf.size} persons in locations` }
  },
}
