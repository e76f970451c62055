import { type Location, LocationSchema } from '@bosted/domain/location'
import { LOCATIONS, PERSONS, USERS } from '@bosted/domain/paths'
import { type Person, PersonSchema } from '@bosted/domain/person'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { parseRecords } from '../../../lib/parse-records.ts'
import { adminKeys } from './keys.ts'

export type AdminLocationRow = Location & { personCount: number; staffCount: number }
export type AdminOverview = { locations: AdminLocationRow[]; persons: Person[] }

/**
 * Every location with its number of persons and staff, and every person (for the search): three
 * list queries that only an admin's rules allow, whatever the number of locations.
 */
export async function getAdminOverview(): Promise<AdminOverview> {
  const [db, { collection, getDocs }] = await Promise.all([getDb(), firestoreLite()])
  const [locations, persons, staff] = await Promise.all([
    getDocs(collection(db, LOCATIONS)),
    getDocs(collection(db, PERSONS)),
    getDocs(collection(db, USERS)),
  ])
  // A document that does not fit its schema is left out (and warned about), never the whole overview.
  const allPersons = parseRecords('persons', persons.docs, (document) =>
    PersonSchema.parse({ ...document.data(), id: document.id }),
  ).items
  const personCount = new Map<string, number>()
  for (const person of allPersons)
    if (typeof person.locationId === 'string')
      personCount.set(person.locationId, (personCount.get(person.locationId) ?? 0) + 1)
  const staffCount = new Map<string, number>()
  for (const document of staff.docs) {
    const ids: unknown = document.get('locations')
    if (Array.isArray(ids))
      for (const id of ids) if (typeof id === 'string') staffCount.set(id, (staffCount.get(id) ?? 0) + 1)
  }
  return {
    locations: parseRecords('locations', locations.docs, (document) =>
      LocationSchema.parse({ ...document.data(), id: document.id }),
    ).items.map((location) => ({
      ...location,
      personCount: personCount.get(location.id) ?? 0,
      staffCount: staffCount.get(location.id) ?? 0,
    })),
    persons: allPersons,
  }
}

export function adminOverviewQueryOptions() {
  return queryOptions({ queryKey: adminKeys.overview, queryFn: getAdminOverview })
}

export function useAdminOverview() {
  return useQuery(adminOverviewQueryOptions())
}
