/** The answers feature's query keys (docs/decisions/0005-server-state.md); `answerKeys.all` reaches every list. */
export const answerKeys = {
  all: ['answers'] as const,
  options: (personId: string, locationId: string) => ['answers', 'options', personId, locationId] as const,
  /** A person's own options, and a location's: the two halves of `options`, each read once. */
  own: (personId: string) => ['answers', 'own', personId] as const,
  place: (locationId: string) => ['answers', 'place', locationId] as const,
}
