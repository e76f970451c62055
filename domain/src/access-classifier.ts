import type { AccessResource } from './access-log.ts'
import { PERSON_SUBCOLLECTIONS, PERSONS, type PersonSubcollection } from './paths.ts'

/** A document or object that is a person's data, and which kind of it. */
export type PersonData = { personId: string; resource: AccessResource }

/**
 * What a path means for the access log (Adgangslog, issue 22). emulator-lite knows nothing of the
 * app's collections: whoever starts it injects this (`accessClassifier`, or `--access-classifier
 * @bosted/domain/access-classifier` on its command line).
 */
export type AccessClassifier = {
  /** A Firestore document path (`persons/p1/notes/n1`): the person's data it is, or null. */
  document(path: string): PersonData | null
  /** A Storage object name (`persons/p1/avatar.png`): the person's data it is, or null. */
  object(name: string): PersonData | null
  /**
   * Where every path the classifier may accept starts (documents and objects), so a scan can narrow
   * its search; the classifier still decides each one.
   */
  prefixes: readonly string[]
}

const isPersonSubcollection = (segment: string | undefined): segment is PersonSubcollection =>
  (PERSON_SUBCOLLECTIONS as readonly (string | undefined)[]).includes(segment)

/**
 * The person document and its answers, registrations and notes in Firestore. Everything else (staff,
 * locations, their answer options) is not a person's data.
 */
export function personDataOf(path: string): PersonData | null {
  const segments = path.split('/')
  if (segments[0] !== PERSONS || segments[1] === undefined || segments[1] === '') return null
  const personId = segments[1]
  if (segments.length === 2) return { personId, resource: 'person' }
  const sub = segments[2]
  if (segments.length === 4 && isPersonSubcollection(sub)) return { personId, resource: sub }
  return null
}

/** A Storage object under persons/{id}/ (their avatar). */
export function personObjectOf(name: string): PersonData | null {
  const segments = name.split('/')
  return segments[0] === PERSONS && segments.length >= 3 && segments[1] !== '' && segments[1] !== undefined
    ? { personId: segments[1], resource: 'avatar' }
    : null
}

/** The module emulator-lite loads this classifier from (`--access-classifier`). */
export const ACCESS_CLASSIFIER_MODULE = '@bosted/domain/access-classifier'

/** Bosted's classifier: persons/{id} and its subcollections, and the objects under persons/{id}/. */
export const bostedAccessClassifier: AccessClassifier = {
  document: personDataOf,
  object: personObjectOf,
  prefixes: [`${PERSONS}/`],
}

export default bostedAccessClassifier
