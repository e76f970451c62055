import { da } from '@bosted/domain/messages/da'
import { useQuery } from '@tanstack/react-query'
import { getBackendHealth } from '../api/get-backend-health.ts'

/** How often the signed-in shell asks whether the backend can store anything. */
const HEALTH_INTERVAL_MS = 30_000

/**
 * Tells staff, while it lasts, that nothing can be saved right now (the api reports the backend
 * as degraded: it answers reads but stores no write, e.g. on a full disk).
 */
export function StorageFullBanner() {
  const { data } = useQuery({
    queryKey: ['backend-health'],
    queryFn: getBackendHealth,
    refetchInterval: HEALTH_INTERVAL_MS,
    staleTime: 0,
    retry: false,
  })
  if (data !== 'cannot-save') return null
  return (
    <p className="banner banner--danger" role="alert">
      {da.shell.storageFull}
    </p>
  )
}
