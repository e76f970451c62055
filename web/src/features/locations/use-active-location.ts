import { useSnapshot } from 'valtio'
import { useLocations } from './api/get-locations.ts'
import { activeLocation, locations } from './locations-store.ts'

/**
 * The user's locations (`ids`, from the session) from the query cache, and the active one among them:
 * `location` is null while they load, when they could not be read (`query.isError`) and when the user
 * has none.
 */
export function useActiveLocation(ids: readonly string[]) {
  const query = useLocations(ids)
  const { activeId } = useSnapshot(locations)
  const location = query.data === undefined ? null : activeLocation(query.data, activeId)
  return { query, list: query.data ?? [], location }
}
