/** Query keys from ids (docs/decisions/0005-server-state.md): a write invalidates by prefix. */
export const queryKeys = {
  locationPersons: (locationId: string) => ['persons', 'location', locationId] as const,
  person: (personId: string) => ['persons', 'one', personId] as const,
  registrations: ['registrations'] as const,
  dayRegistrations: (locationId: string, day: string) => ['registrations', 'day', locationId, day] as const,
  personRegistrations: (personId: string, from: string, to: string) =>
    ['registrations', 'person', personId, from, to] as const,
  /** Statistik's data (registrations and diary entries) of a location's period, from the api. */
  statistics: (locationId: string, from: string, to: string) =>
    ['registrations', 'statistics', locationId, from, to] as const,
  notes: ['notes'] as const,
  dayNoteCounts: (locationId: string, day: string) => ['notes', 'day-counts', locationId, day] as const,
  personNotes: (personId: string, from: string, to: string) => ['notes', 'person', personId, from, to] as const,
  notesList: (locationId: string, personIds: readonly string[], from: string, to: string, text: string) =>
    ['notes', 'list', locationId, personIds.join(','), from, to, text] as const,
  staffNames: (locationId: string) => ['staff', 'names', locationId] as const,
  answerOptions: (personId: string, locationId: string) => ['answers', personId, locationId] as const,
  sharedFeatures: (locationId: string) => ['locations', 'shared-features', locationId] as const,
  accessLog: ['access-log'] as const,
  accessLogPages: (personId: string, filter: { from: string; to: string; actor: string; operation: string }) =>
    ['access-log', 'person', personId, filter.from, filter.to, filter.actor, filter.operation] as const,
  accessLogVerify: ['access-log', 'verify'] as const,
  admin: ['admin'] as const,
  adminOverview: ['admin', 'overview'] as const,
  adminLocation: (id: string) => ['admin', 'location', id] as const,
}
