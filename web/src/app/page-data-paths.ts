import { paths } from '../lib/paths.ts'

/**
 * The pages whose early reads are in page-data-lazy.ts (Dagbøger, Statistik, Administration): a
 * file of its own, so that a visit to another page does not fetch it.
 */
export const readsAheadLazily = (pathname: string): boolean =>
  pathname === paths.notes || pathname.startsWith(paths.statistics) || pathname === paths.admin.index
