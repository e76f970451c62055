/**
 * Differences between emulator-lite and the official emulator that are deliberate, each with its
 * reason (and listed in README.md, "What still differs"). A difference the differential finds that
 * is not one of these fails it. Returns the reason when the difference is one of these.
 */
export function declaredDifference(
  what: string,
  _input: unknown,
  lite: unknown,
  official: unknown,
): string | undefined {
  const error = (outcome: unknown) =>
    outcome !== null && typeof outcome === 'object' && 'error' in outcome
      ? (outcome as { error: string; message?: string })
      : undefined
  const liteOk = lite !== null && typeof lite === 'object' && 'ok' in lite
  const officialError = error(official)
  if (
    (what === 'query' || what === 'aggregation') &&
    liteOk &&
    officialError?.error === 'INVALID_ARGUMENT' &&
    /requires an index/.test(officialError.message ?? '')
  )
    return 'Indexes: emulator-lite runs every query without index requirements (README, "Indexes")'
  if (
    (what === 'query' || what === 'aggregation') &&
    liteOk &&
    // firebase-admin 13 reads the emulator's 400 as INVALID_ARGUMENT, 14 as FAILED_PRECONDITION.
    (officialError?.error === 'INVALID_ARGUMENT' || officialError?.error === 'FAILED_PRECONDITION') &&
    /descending key scans/.test(officialError.message ?? '')
  )
    return 'Descending __name__ order: production serves it; only the official emulator refuses it'
  return undefined
}
