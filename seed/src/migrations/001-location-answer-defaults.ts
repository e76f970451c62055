import { missingLocationAnswerFields } from '@bosted/domain'
import { ANSWERS, LOCATIONS } from '@bosted/domain/paths'
import { chunk, mapLimit } from '../lib/concurrency.ts'
import type { Migration } from './migration.ts'

/**
 * REQ-LOCATION-4: a location's answers get a missing entity ('location'), hidden (false) and createdAt.
 * Only the missing fields are written (an update with just those fields), so answers that are
 * complete are not touched at all and keep their update time.
 */
export const locationAnswerDefaults: Migration = {
  id: '001-location-answer-defaults',
  description: "location answers: fill missing entity ('location'), hidden (false) and createdAt",
  async run(db, now) {
    // One collection-group query over every answers subcollection; keep those under locations/{id}.
    const snapshot = await db.collectionGroup(ANSWERS).get()
    const answers = snapshot.docs.filter((doc) => doc.ref.parent.parent?.parent.id === LOCATIONS)
    const createdAt = now.toISOString()
    const patches = answers
      .map((doc) => ({ ref: doc.ref, patch: missingLocationAnswerFields(doc.data(), createdAt) }))
      .filter(({ patch }) => Object.keys(patch).length > 0)
    await mapLimit(chunk(patches, 500), 3, async (part) => {
      const batch = db.batch()
      for (const { ref, patch } of part) batch.update(ref, patch)
      await batch.commit()
    })
    const locations = new Set(answers.map((doc) => doc.ref.parent.parent?.id))
    return { scanned: answers.length, updated: patches.length, detail: `in ${locations.size} locations` }
  },
}
