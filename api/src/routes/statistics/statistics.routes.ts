import type { AccessResource } from '@bosted/domain/access-log'
import { NOTES, REGISTRATIONS, USERS } from '@bosted/domain/paths'
import { previousPeriod, type Statistics } from '@bosted/domain/statistics'
import {
  STAT_NOTE_FIELDS,
  STAT_REGISTRATION_FIELDS,
  StatisticsQuerySchema,
  summarizeStatistics,
} from '@bosted/domain/statistics-read'
import type { Firestore } from 'firebase-admin/firestore'
import { Hono } from 'hono'
import { type Caller, isDocumentId } from '../../lib/access.ts'
import type { ApiAccess } from '../../lib/access-log.ts'
import { parentIdOf, type QueriedDocument } from '../../lib/firestore-query.ts'
import { httpError } from '../../lib/http-error.ts'
import { type CallerEnv, requireCaller } from '../../middleware/require-caller.ts'
import { requireSession } from '../../middleware/require-session.ts'
import { validateQuery } from '../../middleware/validate.ts'
import { principalOf } from '../person/access-log.routes.ts'

/**
 * Whether the caller may list a location's registrations and diary entries, as firestore.rules'
 * collection-group rules decide it (`isAdmin() || staffOf(locationId)`): staff (a users document
 * that is not disabled) with the admin claim, or with the location among their own.
 */
export async function maySeeLocationCare(db: Firestore, caller: Caller, locationId: string): Promise<boolean> {
  if (!isDocumentId(caller.uid)) return false
  const me = await db.collection(USERS).doc(caller.uid).get()
  const disabled = (me.get('settings') as { disabled?: unknown } | undefined)?.disabled
  const staff = me.exists && (disabled === undefined || disabled === false)
  return staff && (caller.claims.admin === true || caller.locations.includes(locationId))
}

/** One access-log entry per person whose records a read returned, naming the reader. */
function entriesOf(
  documents: readonly QueriedDocument[],
  resource: AccessResource,
  base: Omit<ApiAccess, 'personId' | 'resource' | 'resourceName' | 'count' | 'operation'>,
): ApiAccess[] {
  // The person a record belongs to, from its path (persons/{id}/…), as emulator-lite's log groups reads.
  const counts = new Map<string, number>()
  for (const { path } of documents) {
    const personId = parentIdOf(path)
    counts.set(personId, (counts.get(personId) ?? 0) + 1)
  }
  return [...counts].map(([personId, count]) => ({
    ...base,
    personId,
    operation: 'list',
    resource,
    resourceName: `{path=**}/${resource}`,
    count,
  }))
}

/**
 * GET /api/statistics?locationId=…&from=…&to=…: the figures' data of a location (ADR 0027). The
 * caller must be allowed to list the location's care records as the rules would let them; the
 * reads are privileged, so every person whose data was read gets an entry naming the caller, on
 * record before the answer leaves.
 */
export const statisticsRoutes = new Hono<CallerEnv>().use(requireSession).get(
  '/',
  requireCaller(() => true),
  validateQuery(StatisticsQuerySchema),
  async (c) => {
    const { firebase } = c.var.services
    const { locationId, from, to } = c.req.valid('query')
    const caller = c.var.caller
    if (!isDocumentId(locationId) || !(await maySeeLocationCare(firebase.db, caller, locationId)))
      throw httpError('forbidden')
    const period = { from, to }
    const previous = previousPeriod(period)
    // Each query projects the fields it needs (ADR 0027); read over REST as plain values.
    const [registrations, notes, previousNotes] = await Promise.all([
      firebase.periodQuery({
        collectionId: REGISTRATIONS,
        locationId,
        from: previous.from,
        to,
        fields: STAT_REGISTRATION_FIELDS,
      }),
      firebase.periodQuery({ collectionId: NOTES, locationId, from, to, fields: STAT_NOTE_FIELDS }),
      // Counted per person for the log: only the documents' names are read.
      firebase.periodQuery({ collectionId: NOTES, locationId, from: previous.from, to: previous.to, fields: [] }),
    ])
    const base = {
      methodName: 'bosted.api.ReadStatistics',
      principal: principalOf(caller),
      callerIp: c.var.clientAddress,
    }
    await firebase.accessLog.append(firebase.firestoreProjectId, [
      ...entriesOf(registrations, 'registrations', base),
      ...entriesOf(notes, 'notes', base),
      ...entriesOf(previousNotes, 'notes', base),
    ])
    const data: Statistics = summarizeStatistics({
      period,
      registrations: registrations.map((document) => document.data),
      notes: notes.map((document) => document.data),
      previousNotes: previousNotes.length,
    })
    return c.json({ data })
  },
)
