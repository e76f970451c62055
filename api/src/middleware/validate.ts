import type { MiddlewareHandler } from 'hono'
import type * as z from 'zod/mini'
import { httpError } from '../lib/http-error.ts'
import type { AppEnv } from '../lib/types.ts'

/** zod issues as `{field: [messages]}`; a problem with the whole value is keyed `_`. */
export function fieldErrors(error: z.core.$ZodError): Record<string, string[]> {
  const fields: Record<string, string[]> = {}
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || '_'
    fields[key] ??= []
    fields[key].push(issue.message)
  }
  return fields
}

function parse<T extends z.ZodMiniType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value)
  if (!result.success) throw httpError('invalid_request', { fields: fieldErrors(result.error) })
  return result.data
}

/**
 * Validates a JSON body (whatever its Content-Type; an empty body is `{}`) and answers 400
 * `invalid_request` with the failing fields and their messages.
 */
export function validateJson<T extends z.ZodMiniType>(
  schema: T,
): MiddlewareHandler<AppEnv, string, { in: { json: z.input<T> }; out: { json: z.output<T> } }> {
  return async (c, next) => {
    const text = await c.req.text()
    let value: unknown = {}
    if (text.trim() !== '') {
      try {
        value = JSON.parse(text)
      } catch {
        throw httpError('invalid_request', { fields: { _: ['Malformed JSON'] } })
      }
    }
    c.req.addValidatedData('json', parse(schema, value) as object)
    await next()
  }
}

/** Validates the query string (a repeated key is an array) like validateJson. */
export function validateQuery<T extends z.ZodMiniType>(
  schema: T,
): MiddlewareHandler<AppEnv, string, { in: { query: z.input<T> }; out: { query: z.output<T> } }> {
  return async (c, next) => {
    const queries = Object.entries(c.req.queries()).map(([key, values]) => [
      key,
      values.length === 1 ? values[0] : values,
    ])
    c.req.addValidatedData('query', parse(schema, Object.fromEntries(queries)) as object)
    await next()
  }
}

/** Validates path parameters like validateJson. */
export function validateParams<T extends z.ZodMiniType>(
  schema: T,
): MiddlewareHandler<AppEnv, string, { in: { param: z.input<T> }; out: { param: z.output<T> } }> {
  return async (c, next) => {
    c.req.addValidatedData('param', parse(schema, c.req.param()) as object)
    await next()
  }
}
