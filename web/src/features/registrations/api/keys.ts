/**
 * The registrations feature's query keys (docs/decisions/0005-server-state.md): one factory, so a
 * write invalidates by prefix — `registrationKeys.all` reaches every day, person and period list.
 */
export const registrationKeys = {
  all: ['registrations'] as const,
  day: (locationId: string, day: string) => ['registrations', 'day', locationId, day] as const,
  person: (personId: string, from: string, to: string) => ['registrations', 'person', personId, from, to] as const,
}
