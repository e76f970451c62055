import type * as z from 'zod/mini'

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

type Init = { method?: 'GET' | 'POST' | 'PUT'; body?: unknown }

async function request(path: string, init: Init): Promise<unknown> {
  const response = await fetch(`/api${path}`, {
    method: init.method ?? 'GET',
    credentials: 'same-origin',
    headers: { accept: 'application/json', ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
  const body: unknown = await response.json().catch(() => null)
  if (!response.ok) {
    // The api's error shape (domain ApiErrorBodySchema); a proxy's page or an empty body has no code.
    // Loaded on an error only: zod stays out of the sign-in page's first load (web/BENCHMARKS.md).
    const { ApiErrorBodySchema } = await import('@bosted/domain/errors')
    const parsed = ApiErrorBodySchema.safeParse(body)
    const error = parsed.success ? parsed.data.error : null
    throw new ApiError(response.status, error?.code ?? null, error?.message ?? `HTTP ${response.status}`)
  }
  return body
}

/**
 * The one client for our api (/api, same origin through nginx): JSON in and out, cookies sent,
 * non-2xx turned into ApiError, a 2xx body parsed with the caller's domain schema (a body that does
 * not fit throws the schema's error, never reaches the caller cast). Network failures reject with
 * the browser's TypeError.
 */
export async function api<S extends z.ZodMiniType>(
  path: string,
  schema: S | Promise<S>,
  init: Init = {},
): Promise<z.output<S>> {
  // A schema may come as a promise (a dynamic import), loaded while the request runs: a page whose
  // first load must stay small (the sign-in page) then carries no zod schemas (web/BENCHMARKS.md).
  const [body, parser] = await Promise.all([request(path, init), schema])
  return parser.parse(body)
}

/** A write whose answer the caller does not read (the status says it all): non-2xx is an ApiError. */
export async function apiSend(path: string, init: Init): Promise<void> {
  await request(path, init)
}
