/**
 * An Identity Toolkit error. Business errors are HTTP 400 without `status`; framework errors
 * (schema, credentials, routing) carry one (docs/wire/auth.md#error-envelope). Clients read only `message`.
 */
export class AuthError extends Error {
  constructor(
    message: string,
    readonly httpStatus = 400,
    readonly status?: string,
    readonly reason = 'invalid',
  ) {
    super(message)
  }

  toBody(): Record<string, unknown> {
    const detail: Record<string, unknown> = { message: this.message, reason: this.reason }
    if (this.reason !== 'notFound') detail.domain = 'global'
    if (this.status === 'UNAUTHENTICATED') {
      Object.assign(detail, {
        message: 'Invalid Credentials',
        reason: 'authError',
        location: 'Authorization',
        locationType: 'header',
      })
    }
    return {
      error: {
        code: this.httpStatus,
        message: this.message,
        errors: [detail],
        ...(this.status ? { status: this.status } : {}),
      },
    }
  }
}

export const schemaError = (message: string) => new AuthError(message, 400, 'INVALID_ARGUMENT')
export const notFound = () => new AuthError('Not Found', 404, 'NOT_FOUND', 'notFound')
export const notImplemented = (message: string) => new AuthError(message, 501, 'NOT_IMPLEMENTED', 'unimplemented')

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new AuthError(message)
}
