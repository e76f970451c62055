/** An api answer other than 2xx, with the api's stable error code when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

/**
 * The one client for our api (/api, same origin through nginx): JSON in and out, cookies sent,
 * non-2xx turned into ApiError. Network failures reject with the browser's TypeError.
 */
export async function api<T>(path: string, init: { method?: 'GET' | 'POST' | 'PUT'; body?: unknown } = {}): Promise<T> {
  const response = await fetch(`/api${path}`, {
    method: init.method ?? 'GET',
    credentials: 'same-origin',
    headers: { accept: 'application/json', ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
  const body: unknown = await response.json().catch(() => null)
  if (!response.ok) {
    const error =
      typeof body === 'object' && body !== null && 'error' in body ? (body.error as Record<string, unknown>) : {}
    throw new ApiError(
      response.status,
      typeof error.code === 'string' ? error.code : null,
      typeof error.message === 'string' ? error.message : `HTTP ${response.status}`,
    )
  }
  return body as T
}
