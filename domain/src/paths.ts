/** Every Firestore collection and document path of the product, named once. */
export const USERS = 'users'
export const PERSONS = 'persons'
export const LOCATIONS = 'locations'
export const ANSWERS = 'answers'
export const REGISTRATIONS = 'registrations'
export const NOTES = 'notes'

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
