/**
 * The locations feature's query keys (docs/decisions/0005-server-state.md): one factory, so a change
 * to a location invalidates `locationKeys.all` and the header, banner and pages follow.
 */
export const locationKeys = {
  all: ['locations'] as const,
  /** The user's own locations, keyed by their ids (a new id is a new list). */
  list: (ids: readonly string[]) => ['locations', 'list', ids.join(',')] as const,
  sharedFeatures: (locationId: string) => ['locations', 'shared-features', locationId] as const,
}
