import type { User } from '@bosted/domain/user'

/**
 * Whether the viewer may edit a colleague: admins anyone; superusers the employees they share a
 * location with (as firestore.rules decide).
 */
export function canEditUser(
  viewer: { id: string; isAdmin: boolean; isManager: boolean; locations: readonly string[] },
  target: Pick<User, 'id' | 'userRole' | 'locations'>,
): boolean {
  if (viewer.isAdmin) return true
  if (!viewer.isManager) return false
  return (
    (target.userRole === 'user' || target.userRole === 'employee') &&
    target.locations.some((location) => viewer.locations.includes(location))
  )
}
