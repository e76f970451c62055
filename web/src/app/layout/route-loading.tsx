import { Loading } from '../../components/ui/loading.tsx'

/** A route's code or session is loading (the router's fallback). */
export function RouteLoading() {
  return <Loading />
}
