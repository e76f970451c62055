import { Readable } from 'node:stream'
import { type AccessLogPage, AccessLogQuerySchema, type AccessLogVerification } from '@bosted/domain/access-log'
import { fileSlug } from '@bosted/domain/csv'
import { addDays, dayOf, startOfDay } from '@bosted/domain/days'
import { displayName } from '@bosted/domain/names'
import { personPath } from '@bosted/domain/paths'
import { canManage } from '@bosted/domain/user'
import { Hono } from 'hono'
import * as z from 'zod/mini'
import { type Caller, isAdmin, isDocumentId } from '../../lib/access.ts'
import { accessRoleOf, namesOf, toEntry, withNames } from '../../lib/access-entries.ts'
import type { Firebase } from '../../lib/firebase.ts'
import { httpError } from '../../lib/http-error.ts'
import { type CallerEnv, requireCaller } from '../../middleware/require-caller.ts'
import { requireSession } from '../../middleware/require-session.ts'
import { validateParams, validateQuery } from '../../middleware/validate.ts'
import { exportZip } from './export.ts'

export const PersonParamsSchema = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(128), z.refine(isDocumentId, 'not a document id')),
})

/** Admins and superusers may open access logs (each log then decides by the person's location). */
const mayOpenLogs = (caller: Caller) => canManage(caller.role, caller.claims)

/**
 * The person's location when the caller may see their log: admins any person's, superusers those of
 * their own locations (ADR 0004's roles). Anyone else, or a person who does not exist, is refused
 * (404 only to admins, so others cannot probe which ids exist).
 */
export async function authorizePersonLog(firebase: Firebase, caller: Caller, personId: string): Promise<string | null> {
  const person = await firebase.db.doc(personPath(personId)).get()
  const locationId = person.get('locationId') as unknown
  if (isAdmin(caller)) {
    if (!person.exists) throw httpError('not_found')
    return typeof locationId === 'string' ? locationId : null
  }
  if (!person.exists || typeof locationId !== 'string' || !caller.locations.includes(locationId))
    throw httpError('forbidden')
  return locationId
}

/** The caller as the log names them (requireCaller read their Auth account already). */
export const principalOf = (caller: Caller) => ({ uid: caller.uid, email: caller.email, role: accessRoleOf(caller) })

/** GET /api/person/{id}/access-log: a person's access log, newest first; opening it is logged first. */
export const accessLogRoutes = new Hono<CallerEnv>()
  .use(requireSession)
  .get(
    '/:id/access-log',
    requireCaller(mayOpenLogs),
    validateParams(PersonParamsSchema),
    validateQuery(AccessLogQuerySchema),
    async (c) => {
      const { firebase } = c.var.services
      const { id } = c.req.valid('param')
      const query = c.req.valid('query')
      await authorizePersonLog(firebase, c.var.caller, id)
      if (query.from !== undefined && query.to !== undefined && query.from > query.to)
        throw httpError('invalid_request', { fields: { to: ['to must not be before from'] } })
      const project = firebase.firestoreProjectId
      // Opening the log (its first page) is itself an entry, on record before anything is read.
      if (query.pageToken === undefined)
        await firebase.accessLog.append(project, [
          {
            personId: id,
            operation: 'viewLog',
            resource: 'accessLog',
            resourceName: `${personPath(id)}/accessLog`,
            methodName: 'bosted.api.ReadAccessLog',
            principal: principalOf(c.var.caller),
            count: 1,
            callerIp: c.var.clientAddress,
          },
        ])
      const page = await firebase.accessLog.list(project, id, {
        fromMs: query.from === undefined ? undefined : startOfDay(query.from).getTime(),
        toMs: query.to === undefined ? undefined : startOfDay(addDays(query.to, 1)).getTime(),
        actor: query.actor,
        operation: query.operation,
        pageToken: query.pageToken,
        pageSize: query.pageSize,
      })
      const entries = page.records.map((record) => toEntry(record, id))
      const names = await namesOf(firebase.db, [
        ...entries.flatMap((entry) => (entry.principal.uid ? [entry.principal.uid] : [])),
        ...page.actors.map((actor) => actor.uid),
      ])
      const data: AccessLogPage = {
        entries: withNames(entries, names),
        nextPageToken: page.nextPageToken,
        actors: page.actors
          .map((actor) => ({ uid: actor.uid, name: names.get(actor.uid) ?? actor.email, role: actor.role }))
          .sort((a, b) => (a.name ?? a.uid).localeCompare(b.name ?? b.uid, 'da')),
      }
      return c.json({ data })
    },
  )
  // The person's data as one zip (indsigt, GDPR art. 15): admins only; logged before anything is read.
  .get('/:id/export', requireCaller(isAdmin), validateParams(PersonParamsSchema), async (c) => {
    const { firebase } = c.var.services
    const { id } = c.req.valid('param')
    const person = await firebase.db.doc(personPath(id)).get()
    if (!person.exists) throw httpError('not_found')
    const principal = principalOf(c.var.caller)
    await firebase.accessLog.append(firebase.firestoreProjectId, [
      {
        personId: id,
        operation: 'export',
        resource: 'export',
        resourceName: personPath(id),
        methodName: 'bosted.api.ExportPerson',
        principal,
        count: 1,
        callerIp: c.var.clientAddress,
      },
    ])
    const data = person.data() ?? {}
    const exportedAt = new Date()
    const names = await namesOf(firebase.db, [principal.uid])
    const stream = await exportZip({
      firebase,
      personId: id,
      person: data,
      exportedBy: { uid: principal.uid, name: names.get(principal.uid) ?? principal.email },
      exportedAt,
    })
    const name = displayName(data)
    const file = `borger-${fileSlug(name, 'borger')}-${dayOf(exportedAt)}.zip`
    const ascii = file.replaceAll('æ', 'ae').replaceAll('ø', 'oe').replaceAll('å', 'aa')
    return new Response(Readable.toWeb(stream) as ReadableStream, {
      headers: {
        'content-type': 'application/zip',
        'content-disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file)}`,
        'cache-control': 'no-store',
      },
    })
  })

/** GET /api/access-log/verify: whether the access log's hash chain is intact (admins and superusers). */
export const accessLogVerifyRoutes = new Hono<CallerEnv>()
  .use(requireSession)
  .get('/verify', requireCaller(mayOpenLogs), async (c) => {
    const result = await c.var.services.firebase.accessLog.verify()
    // Cloud Logging keeps its own integrity: nothing to verify here.
    if (result === null) throw httpError('not_found')
    // The counts only: which documents lack their entry (person ids of any location) stay with the operator.
    const { intact, entries, brokenAt, pruned, writesChecked, writesWithoutEntry } = result
    const data: AccessLogVerification = { intact, entries, brokenAt, pruned, writesChecked, writesWithoutEntry }
    return c.json({ data })
  })
