import { ACCESS_OPERATIONS, AccessLogQuerySchema, type AccessOperation } from '@bosted/domain/access-log'
import * as z from 'zod/mini'
import { addDays, isDay } from '../../lib/days.ts'

/** Days in the default period: the last 30 days, today included. */
export const DEFAULT_PERIOD_DAYS = 30
/** Entries per page in the viewer ("Vis flere" appends the next). */
export const PAGE_SIZE = 50
/** Entries per request when the CSV gathers every page of the filter (the api's maximum). */
export const CSV_PAGE_SIZE = 1000

/** The viewer's filters, kept in the URL: a period of Copenhagen days, a staff member, an operation. */
export type AccessLogFilter = {
  from: string
  to: string
  /** A principal's uid, or '' for everyone. */
  actor: string
  /** One operation, or '' for all. */
  operation: AccessOperation | ''
}

export const isOperation = (value: string | null): value is AccessOperation =>
  ACCESS_OPERATIONS.includes(value as AccessOperation)

/** The filter form's values, checked by the domain's query schema (what the api takes). */
const FilterFormSchema = z.required(
  z.pick(AccessLogQuerySchema, { from: true, to: true, actor: true, operation: true }),
  {
    from: true,
    to: true,
  },
)

/**
 * The filter as the form submits it, parsed with the api's query schema: a reversed period put the
 * right way round; null when a value is not one the api takes.
 */
export function submittedAccessLogFilter(values: AccessLogFilter): AccessLogFilter | null {
  const [from, to] = values.from <= values.to ? [values.from, values.to] : [values.to, values.from]
  const parsed = FilterFormSchema.safeParse({
    from,
    to,
    actor: values.actor === '' ? undefined : values.actor,
    operation: values.operation === '' ? undefined : values.operation,
  })
  if (!parsed.success) return null
  return {
    from: parsed.data.from,
    to: parsed.data.to,
    actor: parsed.data.actor ?? '',
    operation: parsed.data.operation ?? '',
  }
}

/** The default filter: everyone, every operation, the last 30 days ending `today`. */
export function defaultAccessLogFilter(today: string): AccessLogFilter {
  return { from: addDays(today, -(DEFAULT_PERIOD_DAYS - 1)), to: today, actor: '', operation: '' }
}

/**
 * Reads the filter from the URL (`from`, `to`, `actor`, `operation`); what is missing or unreadable
 * keeps its default, and a reversed period is put the right way round.
 */
export function parseAccessLogFilter(params: URLSearchParams, today: string): AccessLogFilter {
  const filter = defaultAccessLogFilter(today)
  const from = params.get('from')
  const to = params.get('to')
  if (isDay(from)) filter.from = from
  if (isDay(to)) filter.to = to
  if (filter.from > filter.to) [filter.from, filter.to] = [filter.to, filter.from]
  const actor = params.get('actor')?.trim() ?? ''
  if (actor.length <= 128) filter.actor = actor
  const operation = params.get('operation')
  if (isOperation(operation)) filter.operation = operation
  return filter
}

/** The URL form of the filter (the inverse of parseAccessLogFilter; defaults are left out). */
export function accessLogFilterParams(filter: AccessLogFilter, today: string): URLSearchParams {
  const fallback = defaultAccessLogFilter(today)
  const params = new URLSearchParams()
  if (filter.from !== fallback.from || filter.to !== fallback.to) {
    params.set('from', filter.from)
    params.set('to', filter.to)
  }
  if (filter.actor !== '') params.set('actor', filter.actor)
  if (filter.operation !== '') params.set('operation', filter.operation)
  return params
}

/** The api's query string for one page of the filter (GET /api/person/{id}/access-log?…). */
export function accessLogQueryString(
  filter: AccessLogFilter,
  paging: { pageToken?: string | null; pageSize: number },
): string {
  const params = new URLSearchParams({ from: filter.from, to: filter.to })
  if (filter.actor !== '') params.set('actor', filter.actor)
  if (filter.operation !== '') params.set('operation', filter.operation)
  if (paging.pageToken != null && paging.pageToken !== '') params.set('pageToken', paging.pageToken)
  params.set('pageSize', String(paging.pageSize))
  return params.toString()
}
