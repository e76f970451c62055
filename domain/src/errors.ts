import * as z from 'zod/mini'

/** Stable error codes the api answers with in `{error:{code,message}}`; the web maps them to Danish. */
export const ERROR_CODES = [
  'unauthenticated',
  'forbidden',
  'not_found',
  'invalid_request',
  'email_exists',
  'too_many_requests',
  'payload_too_large',
  'cross_site',
  'internal',
  'unavailable',
  'storage_full',
  'password_change_required',
] as const
export type ErrorCode = (typeof ERROR_CODES)[number]

export const ApiErrorBodySchema = z.object({
  error: z.object({
    code: z.enum(ERROR_CODES),
    message: z.string(),
    fields: z.optional(z.record(z.string(), z.array(z.string()))),
  }),
})
export type ApiErrorBody = z.infer<typeof ApiErrorBodySchema>
