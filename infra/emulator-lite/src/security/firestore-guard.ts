import { type DatabaseRef, parseDocumentName } from '../firestore/paths.ts'
import type { Fields } from '../firestore/values.ts'
import { nextCommitTime } from '../firestore/writes.ts'
import { ApiError } from '../http/errors.ts'
import {
  checkFirestore,
  checkFirestoreList,
  createLookupBudget,
  type Decision,
  type DocLookup,
  type RulesAuth,
} from '../rules/index.ts'
import type { Store } from '../store/store.ts'
import type { Caller } from './caller.ts'
import type { Rulesets } from './rulesets.ts'

/** A denial in the shape the SDKs turn into `permission-denied`, with the emulator's detail. */
export function permissionDenied(decision: Decision): ApiError {
  return new ApiError('PERMISSION_DENIED', `Missing or insufficient permissions. ${decision.message}`.trim())
}

type Client = { auth: RulesAuth }

/**
 * Security rules for the Firestore routes: every read and write of a caller that is not privileged
 * is decided by the project's ruleset before anything is returned or kept.
 */
export function createFirestoreGuard(store: Store, rulesets: Rulesets) {
  /** The client and its ruleset, or null when no rules apply (privileged caller, or no rules loaded). */
  function subject(
    db: DatabaseRef,
    caller: Caller,
  ): (Client & { ruleset: NonNullable<ReturnType<Rulesets['firestore']>> }) | null {
    if (caller.privileged) return null
    const ruleset = rulesets.firestore(db.project)
    return ruleset === null ? null : { auth: caller.auth, ruleset }
  }

  const current = (db: DatabaseRef): DocLookup => {
    const read = (path: string) => store.getDocument(db.project, db.database, path)?.fields ?? null
    return { get: read, getAfter: read }
  }

  return {
    /** A single-document read (GET, batchGet): each document must be readable, found or not. */
    get(db: DatabaseRef, caller: Caller, path: string, fields: Fields | null): void {
      const client = subject(db, caller)
      if (client === null) return
      const decision = checkFirestore(client.ruleset, {
        database: db.database,
        path,
        method: 'get',
        auth: client.auth,
        time: new Date(),
        resource: fields,
        requestResource: null,
        lookup: current(db),
      })
      if (!decision.allowed) throw permissionDenied(decision)
    },

    /** A query or aggregation (and list documents, a query without a filter): decided on the query. */
    list(db: DatabaseRef, caller: Caller, parent: string, structuredQuery: unknown): void {
      const client = subject(db, caller)
      if (client === null) return
      const from = (structuredQuery as { from?: { collectionId?: unknown; allDescendants?: unknown }[] } | undefined)
        ?.from?.[0]
      const decision = checkFirestoreList(client.ruleset, {
        database: db.database,
        parent,
        collectionId: typeof from?.collectionId === 'string' ? from.collectionId : '',
        allDescendants: from?.allDescendants === true,
        structuredQuery,
        auth: client.auth,
        time: new Date(),
        lookup: current(db),
      })
      if (!decision.allowed) throw permissionDenied(decision)
    },

    /** Calls the client may never make (listCollectionIds is a server SDK call). */
    privilegedOnly(db: DatabaseRef, caller: Caller): void {
      if (subject(db, caller) !== null)
        throw permissionDenied({ allowed: false, message: 'Only server SDKs may list collection ids.' })
    },

    /**
     * Applies a commit's writes and decides each one against the state before (`resource`, `get()`)
     * and after the whole commit (`request.resource`, `getAfter()`); a single denial undoes all.
     */
    writes<T>(
      db: DatabaseRef,
      caller: Caller,
      rawWrites: unknown,
      apply: (afterRules?: (() => void)[], commitTime?: bigint) => T,
    ): T {
      const client = subject(db, caller)
      if (client === null) return apply()
      const targets = writeTargets(db, rawWrites)
      return store.transaction(() => {
        const before = new Map<string, Fields | null>()
        for (const { path } of targets) {
          if (!before.has(path)) before.set(path, store.getDocument(db.project, db.database, path)?.fields ?? null)
        }
        // Checks Firestore makes once the rules allowed the writes (a document's size), as Google's emulator orders them.
        const afterRules: (() => void)[] = []
        // `request.time` is the commit's time, so a server timestamp equals it to the nanosecond (as
        // production's) even when commits share a millisecond and get times a microsecond apart.
        const commitTime = nextCommitTime()
        const result = apply(afterRules, commitTime)
        const after = (path: string) => store.getDocument(db.project, db.database, path)?.fields ?? null
        const lookup: DocLookup = {
          get: (path) => (before.has(path) ? (before.get(path) ?? null) : after(path)),
          getAfter: after,
        }
        const budget = createLookupBudget(before.keys())
        const time = commitTime
        for (const { path, isDelete } of targets) {
          const resource = before.get(path) ?? null
          const method = isDelete ? 'delete' : resource === null ? 'create' : 'update'
          const decision = checkFirestore(client.ruleset, {
            database: db.database,
            path,
            method,
            auth: client.auth,
            time,
            resource,
            requestResource: isDelete ? null : after(path),
            lookup,
            budget,
          })
          if (!decision.allowed) throw permissionDenied(decision)
        }
        for (const check of afterRules) check()
        return result
      })
    },
  }
}

export type FirestoreGuard = ReturnType<typeof createFirestoreGuard>

/** The documents a commit changes (a `verify` write reads only, and is not a write for the rules). */
export function writeTargets(db: DatabaseRef, rawWrites: unknown): { path: string; isDelete: boolean }[] {
  if (!Array.isArray(rawWrites)) return []
  const targets: { path: string; isDelete: boolean }[] = []
  for (const write of rawWrites as Record<string, unknown>[]) {
    if (typeof write !== 'object' || write === null) continue
    if (typeof write.delete === 'string') targets.push({ path: parseDocumentName(write.delete, db), isDelete: true })
    else if (typeof write.update === 'object' && write.update !== null) {
      targets.push({ path: parseDocumentName((write.update as { name?: unknown }).name, db), isDelete: false })
    } else if (typeof write.transform === 'object' && write.transform !== null) {
      targets.push({
        path: parseDocumentName((write.transform as { document?: unknown }).document, db),
        isDelete: false,
      })
    }
  }
  return targets
}
