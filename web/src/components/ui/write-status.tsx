import { da } from '@bosted/domain/messages/da'
import { useWriteState } from '../../lib/write-state.ts'

/**
 * Said on a registration or diary entry written here: "Gemmes, når der er forbindelse" while it is
 * kept on the device, "Gemt" for a moment once the backend has it (docs/decisions/0033-offline-writes.md).
 * `path` is the document's (persons/{id}/registrations/{id} …).
 */
export function WriteStatus({ path }: { path: string }) {
  const state = useWriteState(path)
  if (state === null) return null
  return state === 'queued' ? (
    <span className="badge badge--info">{da.shell.writeQueued}</span>
  ) : (
    <span className="badge badge--ok">{da.shell.writeSaved}</span>
  )
}
