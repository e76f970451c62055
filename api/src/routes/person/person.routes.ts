import { locationPath, notesPath, personPath, registrationsPath } from '@bosted/domain/paths'
import type { DocumentReference, Firestore } from 'firebase-admin/firestore'
import { FieldValue } from 'firebase-admin/firestore'
import { type Context, Hono } from 'hono'
import * as z from 'zod/mini'
import { isAdmin, isDocumentId } from '../../lib/access.ts'
import { httpError } from '../../lib/http-error.ts'
import { type CallerEnv, requireCaller } from '../../middleware/require-caller.ts'
import { requireSession } from '../../middleware/require-session.ts'
import { validateJson, validateParams } from '../../middleware/validate.ts'
import { PersonParamsSchema, principalOf } from './access-log.routes.ts'

const MoveRequestSchema = z.object({
  locationId: z.string().check(z.minLength(1), z.maxLength(1500), z.refine(isDocumentId, 'not a document id')),
})
const DisabledRequestSchema = z.object({ disabled: z.boolean() })

/** Firestore's limit on the writes of one batch. */
const BATCH_LIMIT = 500

/** A person's registrations and notes (what a move relocates). */
async function recordsOf(db: Firestore, personId: string): Promise<DocumentReference[]> {
  const [registrations, notes] = await Promise.all([
    db.collection(registrationsPath(personId)).get(),
    db.collection(notesPath(personId)).get(),
  ])
  return [...registrations.docs, ...notes.docs].map((doc) => doc.ref)
}

/** Gives these registrations and notes their new location, in batches (the care text is untouched). */
async function relocateRecords(db: Firestore, records: DocumentReference[], locationId: string): Promise<number> {
  for (let start = 0; start < records.length; start += BATCH_LIMIT) {
    const batch = db.batch()
    for (const record of records.slice(start, start + BATCH_LIMIT)) batch.update(record, { locationId })
    await batch.commit()
  }
  return records.length
}

/**
 * The api's own change of a person's data, on the admin's behalf, in the person's access log:
 * appended BEFORE the change (ADR 0017), so a change can never be stored without its entry; a
 * change that then fails leaves an entry of an attempt, which is the lesser error.
 */
async function logApiWrite(c: Context<CallerEnv>, personId: string, methodName: string, count: number) {
  const { firebase } = c.var.services
  await firebase.accessLog.append(firebase.firestoreProjectId, [
    {
      personId,
      operation: 'update',
      resource: 'person',
      resourceName: personPath(personId),
      methodName,
      principal: principalOf(c.var.caller),
      count,
      callerIp: c.var.clientAddress,
    },
  ])
}

/** A person's (borger's) account and location: admin only (firebase-admin, the rules do not apply). */
export const personRoutes = new Hono<CallerEnv>()
  .use(requireSession)
  .put(
    '/:id/location',
    requireCaller(isAdmin),
    validateParams(PersonParamsSchema),
    validateJson(MoveRequestSchema),
    async (c) => {
      const { db } = c.var.services.firebase
      const { id } = c.req.valid('param')
      const { locationId } = c.req.valid('json')
      const personRef = db.doc(personPath(id))
      const targetRef = db.doc(locationPath(locationId))
      const [person, target] = await Promise.all([personRef.get(), targetRef.get()])
      if (!person.exists || !target.exists) throw httpError('not_found')
      const records = await recordsOf(db, id)
      const staying = person.get('locationId') === locationId
      await logApiWrite(c, id, 'bosted.api.MovePerson', 1 + (staying ? 0 : records.length))
      // The person and both locations' `persons` in one transaction (REQ-DATA-1's array-union, and its reverse).
      const from = await db.runTransaction(async (transaction) => {
        const [person, target] = await Promise.all([transaction.get(personRef), transaction.get(targetRef)])
        if (!person.exists) throw httpError('not_found')
        if (!target.exists) throw httpError('not_found')
        const previous = person.get('locationId') as unknown
        const source = typeof previous === 'string' && previous !== locationId ? db.doc(locationPath(previous)) : null
        const sourceExists = source !== null && (await transaction.get(source)).exists
        transaction.update(personRef, { locationId })
        transaction.update(targetRef, { persons: FieldValue.arrayUnion(id) })
        if (source !== null && sourceExists) transaction.update(source, { persons: FieldValue.arrayRemove(id) })
        return typeof previous === 'string' ? previous : null
      })
      const moved = from === locationId ? 0 : await relocateRecords(db, records, locationId)
      return c.json({ data: { personId: id, from, to: locationId, records: moved } })
    },
  )
  .put(
    '/:id/disabled',
    requireCaller(isAdmin),
    validateParams(PersonParamsSchema),
    validateJson(DisabledRequestSchema),
    async (c) => {
      const { auth, db } = c.var.services.firebase
      const { id } = c.req.valid('param')
      const { disabled } = c.req.valid('json')
      const personRef = db.doc(personPath(id))
      if (!(await personRef.get()).exists) throw httpError('not_found')
      await logApiWrite(c, id, 'bosted.api.SetPersonSignIn', 1)
      // The document first (what the rules read), then the account; a failed account change undoes it.
      const before = await db.runTransaction(async (transaction) => {
        const person = await transaction.get(personRef)
        if (!person.exists) throw httpError('not_found')
        transaction.update(personRef, { 'settings.disabled': disabled })
        return person.get('settings.disabled') === true
      })
      try {
        await auth.updateUser(id, { disabled })
        // A disabled person's open sessions end at their next check.
        if (disabled) await auth.revokeRefreshTokens(id)
      } catch (error) {
        await personRef.update({ 'settings.disabled': before })
        const code = (error as { code?: unknown }).code
        if (code === 'auth/user-not-found') throw httpError('not_found')
        throw error
      }
      return c.json({ data: { personId: id, disabled } })
    },
  )
