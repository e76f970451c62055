import { da } from '@bosted/domain/messages/da'

export function RouteLoading() {
  return (
    <div className="route-loading" role="status">
      {da.shell.loading}
    </div>
  )
}
