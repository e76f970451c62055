import { CustomClaimsSchema, LocationSchema, UserSchema } from '@bosted/domain'
import { locationPath, userPath } from '@bosted/domain/paths'
import * as z from 'zod/mini'
import { type Caller, isDocumentId, type TargetFacts } from './access.ts'
import type { Firebase } from './firebase.ts'
import { httpError } from './http-error.ts'

const UserAccessSchema = z.pick(UserSchema, { locations: true, userRole: true })
const LocationPersonsSchema = z.pick(LocationSchema, { persons: true })

/** The parts of users/{uid} that decide access; defaults (no locations, role 'user') when missing or malformed. */
async function readUserAccess(firebase: Firebase, uid: string) {
  if (!isDocumentId(uid)) return UserAccessSchema.parse({})
  const snapshot = await firebase.db.doc(userPath(uid)).get()
  const parsed = UserAccessSchema.safeParse(snapshot.data() ?? {})
  return parsed.success ? parsed.data : UserAccessSchema.parse({})
}

/**
 * Loads the caller with claims fresh from Auth (the session cookie's copy may be days old) and
 * their user document.
 */
export async function loadCaller(firebase: Firebase, uid: string): Promise<Caller> {
  const [record, access] = await Promise.all([
    firebase.auth.getUser(uid).catch((error: { code?: unknown }) => {
      // Deleted since its session was last checked (checks are cached for a few seconds).
      if (error.code === 'auth/user-not-found') throw httpError('unauthenticated')
      throw error
    }),
    readUserAccess(firebase, uid),
  ])
  const claims = CustomClaimsSchema.safeParse(record.customClaims ?? {})
  return {
    uid,
    email: record.email ?? null,
    role: access.userRole,
    claims: claims.success ? claims.data : {},
    locations: access.locations.filter(isDocumentId),
  }
}

/** The facts canReadUser needs about a target, read with one document get and one getAll. */
export async function loadTargetFacts(firebase: Firebase, caller: Caller, targetId: string): Promise<TargetFacts> {
  const locationRefs = caller.locations.map((id) => firebase.db.doc(locationPath(id)))
  const [target, locations] = await Promise.all([
    readUserAccess(firebase, targetId),
    locationRefs.length > 0 ? firebase.db.getAll(...locationRefs) : Promise.resolve([]),
  ])
  const personLocations = locations
    .filter((snapshot) => {
      const parsed = LocationPersonsSchema.safeParse(snapshot.data() ?? {})
      return parsed.success && parsed.data.persons.includes(targetId)
    })
    .map((snapshot) => snapshot.id)
  return { userLocations: target.locations, personLocations }
}
