import { da } from '@bosted/domain/messages/da'
import { useOnline } from '../../../lib/use-online.ts'

/**
 * Tells staff, while it lasts, that the tablet has no connection: what they see is not kept current
 * and nothing can be saved until the connection is back (issue 36).
 */
export function OfflineBanner() {
  const isOnline = useOnline()
  if (isOnline) return null
  return (
    <p className="banner banner--warning" role="alert">
      {da.shell.offline}
    </p>
  )
}
