export type BackendHealth = 'ok' | 'cannot-save' | 'unknown'

/**
 * The api's own health check (GET /api/health): 503 `degraded` means the backend answers but
 * stores nothing (a full disk). Anything else this screen cannot act on is 'unknown'.
 */
export async function getBackendHealth(): Promise<BackendHealth> {
  try {
    const response = await fetch('/api/health', { credentials: 'same-origin', headers: { accept: 'application/json' } })
    const body = (await response.json().catch(() => null)) as { status?: unknown } | null
    if (response.ok) return 'ok'
    return body?.status === 'degraded' ? 'cannot-save' : 'unknown'
  } catch {
    return 'unknown'
  }
}
