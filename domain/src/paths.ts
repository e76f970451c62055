/** Every Firestore collection and document path of the product, named once. */
export const USERS = 'users'
export const PERSONS = 'persons'
export const LOCATIONS = 'locations'
export const ANSWERS = 'answers'
export const REGISTRATIONS = 'registrations'
export const NOTES = 'notes'

/** Every collection id of the product: the top-level ones, then the subcollections. */
export const COLLECTION_IDS = [LOCATIONS, USERS, PERSONS, ANSWERS, REGISTRATIONS, NOTES] as const
export type CollectionId = (typeof COLLECTION_IDS)[number]

/** The collections at the root: a project holding a document in any of them has data. */
export const TOP_LEVEL_COLLECTIONS = [LOCATIONS, USERS, PERSONS] as const

export const userPath = (uid: string) => `${USERS}/${uid}`
export const personPath = (personId: string) => `${PERSONS}/${personId}`
export const locationPath = (locationId: string) => `${LOCATIONS}/${locationId}`
export const personAnswersPath = (personId: string) => `${personPath(personId)}/${ANSWERS}`
export const locationAnswersPath = (locationId: string) => `${locationPath(locationId)}/${ANSWERS}`
/**
 * What a location's persons may read of its settings (they may not read the location itself): a copy
 * of `settings.features`, written by admins together with it.
 */
export const locationSharedFeaturesPath = (locationId: string) => `${locationPath(locationId)}/shared/features`
export const registrationsPath = (personId: string) => `${personPath(personId)}/${REGISTRATIONS}`
export const notesPath = (personId: string) => `${personPath(personId)}/${NOTES}`

/** The collections under a person that are the person's own data (besides the person document). */
export const PERSON_SUBCOLLECTIONS = [ANSWERS, REGISTRATIONS, NOTES] as const
export type PersonSubcollection = (typeof PERSON_SUBCOLLECTIONS)[number]

/** Storage: every object under this prefix is the person's (their avatar), read with identity. */
export const personObjectsPrefix = (personId: string) => `${PERSONS}/${personId}/`
/** Storage: the prefix of all persons' objects (download tokens alone do not open them). */
export const PERSON_OBJECTS_ROOT = `${PERSONS}/`
export const personAvatarObject = (personId: string, file: string) => `${personObjectsPrefix(personId)}${file}`
export const userAvatarObject = (uid: string, file: string) => `${USERS}/${uid}/${file}`
export const locationLogoObject = (locationId: string, file: string) => `${LOCATIONS}/${locationId}/${file}`
