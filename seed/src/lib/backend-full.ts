/**
 * A full disk behind the emulators, told at once: firebase-admin retries a commit refused with
 * RESOURCE_EXHAUSTED for up to ten minutes, so without this the seed and the migrations would look
 * hung while emulator-lite refuses every write (ADR 0018).
 */
export class BackendFullError extends Error {
  override name = 'BackendFullError'
  /**
   * Read by firebase-admin's transport (google-gax) as the HTTP status of a failed fetch: a 400 maps
   * to INVALID_ARGUMENT, which no call retries (a thrown error without a status counts as
   * UNAVAILABLE, which a commit retries for ten minutes like RESOURCE_EXHAUSTED itself).
   */
  readonly status = 400
}

const advice = 'free space on its data disk, then run this again'

/** The answer emulator-lite's `GET /health` gives while its disk is full: `disk.state` is `full`. */
export async function assertBackendHasRoom(firestoreHost: string | undefined): Promise<void> {
  if (!firestoreHost) return
  let state: unknown
  try {
    const response = await fetch(`http://${firestoreHost}/health`, { signal: AbortSignal.timeout(3000) })
    // The official emulator has no /health: nothing to learn there.
    if (response.ok) state = ((await response.json()) as { disk?: { state?: unknown } } | null)?.disk?.state
  } catch {
    return
  }
  if (state === 'full')
    throw new BackendFullError(`the backend at ${firestoreHost} reports a full disk and refuses writes: ${advice}`)
}

/**
 * firebase-admin's REST transport calls this for every Firestore request: a 429 RESOURCE_EXHAUSTED
 * becomes an error the SDK does not retry (see BackendFullError.status), so the run stops with it.
 */
export async function fetchRefusingFullDisk(url: string, init: RequestInit): Promise<Response> {
  const response = await fetch(url, init)
  if (response.status !== 429) return response
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { error?: { status?: unknown; message?: unknown } } | null
  if (body?.error?.status !== 'RESOURCE_EXHAUSTED') return response
  await response.body?.cancel()
  throw new BackendFullError(
    `the backend refused a write with RESOURCE_EXHAUSTED (${String(body.error.message ?? 'no detail')}): ${advice}`,
  )
}
