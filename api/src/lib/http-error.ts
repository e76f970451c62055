import { da, type ErrorCode } from '@bosted/domain'
import type { ContentfulStatusCode } from 'hono/utils/http-status'

const DEFAULT_MESSAGES: Record<ErrorCode, string> = {
  unauthenticated: da.api.unauthenticated,
  forbidden: da.api.forbidden,
  not_found: da.api.notFound,
  invalid_request: da.api.invalidRequest,
  email_exists: da.api.emailExists,
  too_many_requests: da.api.tooManyRequests,
  payload_too_large: da.api.payloadTooLarge,
  cross_site: da.api.crossSite,
  internal: da.api.internal,
  unavailable: da.api.unavailable,
  storage_full: da.api.storageFull,
  password_change_required: da.api.passwordChangeRequired,
}

/** An error that leaves the api as `{error:{code,message,fields?}}` with its status (see app.ts onError). */
export class HttpError extends Error {
  readonly status: ContentfulStatusCode
  readonly code: ErrorCode
  readonly fields: Record<string, string[]> | undefined
  readonly headers: Record<string, string>

  constructor(
    status: ContentfulStatusCode,
    code: ErrorCode,
    options: { message?: string; fields?: Record<string, string[]>; headers?: Record<string, string> } = {},
  ) {
    super(options.message ?? DEFAULT_MESSAGES[code])
    this.status = status
    this.code = code
    this.fields = options.fields
    this.headers = options.headers ?? {}
  }

  toBody() {
    return { error: { code: this.code, message: this.message, ...(this.fields ? { fields: this.fields } : {}) } }
  }
}

/** The status an error code is answered with when it does not come from an HttpError. */
export const STATUS_OF: Record<ErrorCode, ContentfulStatusCode> = {
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  invalid_request: 400,
  email_exists: 409,
  too_many_requests: 429,
  payload_too_large: 413,
  cross_site: 403,
  internal: 500,
  unavailable: 503,
  // 507 Insufficient Storage: the backend cannot store anything (a full disk, an exhausted quota).
  storage_full: 507,
  // The account holds a temporary password: only changing it (and signing out) is allowed.
  password_change_required: 403,
}

export const httpError = (code: ErrorCode, options?: ConstructorParameters<typeof HttpError>[2]) =>
  new HttpError(STATUS_OF[code], code, options)

/** Where a firebase-admin or Firestore error says the backend could not be reached. */
export function isUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  const name = (error as { name?: unknown } | null)?.name
  if (name === 'AccessLogUnavailableError' || name === 'TokenKeysUnavailableError') return true
  return (
    code === 14 || // gRPC UNAVAILABLE (Firestore)
    code === 4 || // DEADLINE_EXCEEDED
    code === 'app/network-error' ||
    code === 'app/network-timeout' ||
    code === 'ECONNREFUSED'
  )
}

/**
 * Where a write was refused because the backend cannot store anything: Firestore's
 * RESOURCE_EXHAUSTED (gRPC code 8; emulator-lite answers it on a full disk) or an Auth error that
 * carries it.
 */
export function isResourceExhausted(error: unknown): boolean {
  const candidate = error as { code?: unknown; message?: unknown } | null
  if (candidate?.code === 8 || candidate?.code === 'resource-exhausted') return true
  return typeof candidate?.message === 'string' && /\bRESOURCE_EXHAUSTED\b/.test(candidate.message)
}

/** An unavailable dependency's error in one line: its name, code and message, and its cause's. */
export function describeCause(error: unknown): string {
  if (typeof error === 'string') return error
  const parts: string[] = []
  for (let current = error, depth = 0; current instanceof Object && depth < 3; depth++) {
    const { name, code, message, cause } = current as {
      name?: unknown
      code?: unknown
      message?: unknown
      cause?: unknown
    }
    parts.push([name, code, typeof message === 'string' ? message.slice(0, 200) : undefined].filter(Boolean).join(' '))
    current = cause
  }
  return parts.join(' <- ')
}
