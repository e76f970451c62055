/** The staff feature's query keys (docs/decisions/0005-server-state.md); `staffKeys.all` reaches every list. */
export const staffKeys = {
  all: ['staff'] as const,
  names: (locationId: string) => ['staff', 'names', locationId] as const,
}
