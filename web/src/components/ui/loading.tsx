import { da } from '@bosted/domain/messages/da'

/** "Indlæser …", announced politely: a page or a part of one waiting for its data. */
export function Loading() {
  return (
    <div className="route-loading" role="status">
      {da.shell.loading}
    </div>
  )
}
