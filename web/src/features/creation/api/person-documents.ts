import { LOCATIONS, personAnswersPath, personPath } from '@bosted/domain/paths'
import type { Person } from '@bosted/domain/person'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'

/** A fresh id for one of the person's answer options (known before the person is written). */
export async function newAnswerId(personId: string): Promise<string> {
  const [db, { collection, doc }] = await Promise.all([getDb(), firestoreLite()])
  return doc(collection(db, personAnswersPath(personId))).id
}

/**
 * persons/{id} with exactly the fields firestore.rules allows, then the person's own answer options
 * (their rule reads the person's location, so the person comes first).
 */
export async function writePersonDocuments(
  person: Person,
  answers: { id: string; text: string; value: number }[],
): Promise<void> {
  const [db, { doc, setDoc }] = await Promise.all([getDb(), firestoreLite()])
  await setDoc(doc(db, personPath(person.id)), person)
  await Promise.all(
    answers.map((answer) =>
      setDoc(doc(db, `${personAnswersPath(person.id)}/${answer.id}`), {
        ...answer,
        hidden: false,
        entity: 'person',
        createdAt: person.createdAt,
      }),
    ),
  )
}

/** Array-union of the person's id into the location's persons (REQ-DATA-2). */
export async function addPersonToLocation(locationId: string, personId: string): Promise<void> {
  const [db, { arrayUnion, doc, updateDoc }] = await Promise.all([getDb(), firestoreLite()])
  await updateDoc(doc(db, LOCATIONS, locationId), { persons: arrayUnion(personId) })
}
