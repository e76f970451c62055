/**
 * The notes feature's query keys (docs/decisions/0005-server-state.md): one factory, so a write
 * invalidates by prefix — `noteKeys.all` reaches every list, count and person's entries.
 */
export const noteKeys = {
  all: ['notes'] as const,
  dayCounts: (locationId: string, day: string) => ['notes', 'day-counts', locationId, day] as const,
  person: (personId: string, from: string, to: string) => ['notes', 'person', personId, from, to] as const,
  list: (locationId: string, personIds: readonly string[], from: string, to: string, text: string) =>
    ['notes', 'list', locationId, personIds.join(','), from, to, text] as const,
}
