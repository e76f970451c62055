/** The answers feature's query keys (docs/decisions/0005-server-state.md); `answerKeys.all` reaches every list. */
export const answerKeys = {
  all: ['answers'] as const,
  options: (personId: string, locationId: string) => ['answers', personId, locationId] as const,
}
