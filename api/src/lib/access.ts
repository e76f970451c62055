import { type CustomClaims, canAdminister, canManage, type UserRole } from '@bosted/domain'

/** Who is calling, from fresh Auth claims and their users/{uid} document. */
export type Caller = {
  uid: string
  /** The Auth account's email (null when it has none). */
  email: string | null
  role: UserRole
  claims: CustomClaims
  /** The caller's locations (users/{uid}.locations); empty for persons and unknown users. */
  locations: readonly string[]
}

/** What is known about a user the caller asks for. */
export type TargetFacts = {
  /** users/{id}.locations, empty when there is no user document. */
  userLocations: readonly string[]
  /** The caller's locations whose `persons` list the id (locations/{id}.persons). */
  personLocations: readonly string[]
}

export const isAdmin = (caller: Caller) => canAdminister(caller.role, caller.claims)
export const canCreateUsers = (caller: Caller) => canManage(caller.role, caller.claims)

/** Admins read anyone; everyone reads themselves; staff read users and persons of their own locations. */
export function canReadUser(caller: Caller, targetId: string, target: TargetFacts): boolean {
  if (isAdmin(caller) || caller.uid === targetId) return true
  const mine = new Set(caller.locations)
  return target.userLocations.some((id) => mine.has(id)) || target.personLocations.some((id) => mine.has(id))
}

/** Whether a string can name a Firestore document (uids from Auth may hold anything up to 128 characters). */
export function isDocumentId(id: string): boolean {
  return id.length > 0 && id.length <= 1500 && !id.includes('/') && id !== '.' && id !== '..' && !/^__.*__$/.test(id)
}
