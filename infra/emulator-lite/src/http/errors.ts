/** Google API error statuses with the HTTP status each SDK maps back to the right code. */
const HTTP_STATUS = {
  INVALID_ARGUMENT: 400,
  FAILED_PRECONDITION: 400,
  OUT_OF_RANGE: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  ABORTED: 409,
  PAYLOAD_TOO_LARGE: 413,
  RESOURCE_EXHAUSTED: 429,
  INTERNAL: 500,
  UNIMPLEMENTED: 501,
} as const
export type ErrorStatus = keyof typeof HTTP_STATUS

/** An error answered as `{"error":{"code":<http>,"message","status"}}`. */
export class ApiError extends Error {
  constructor(
    readonly status: ErrorStatus,
    message: string,
  ) {
    super(message)
  }
  get httpStatus(): number {
    return HTTP_STATUS[this.status]
  }
  toBody(): { error: { code: number; message: string; status: string } } {
    // PAYLOAD_TOO_LARGE is not a canonical status; Google answers 413 with INVALID_ARGUMENT semantics.
    const status = this.status === 'PAYLOAD_TOO_LARGE' ? 'INVALID_ARGUMENT' : this.status
    return { error: { code: this.httpStatus, message: this.message, status } }
  }
}

export const invalid = (message: string) => new ApiError('INVALID_ARGUMENT', message)
