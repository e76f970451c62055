import { da } from '@bosted/domain/messages/da'
import type { RecordKind } from '../../lib/parse-records.ts'

/**
 * The staff notice for records a list had to leave out ('1 registrering kunne ikke vises.'); nothing
 * when every record was shown. A polite status, so a screen reader announces it once.
 */
export function SkippedNotice({ kind, count }: { kind: RecordKind; count: number }) {
  if (count === 0) return null
  return (
    <p className="notice notice--warning" role="status">
      {da.records.skipped(kind, count)}
    </p>
  )
}
