import type { IncomingMessage } from 'node:http'
import type { AccessClassifier } from '@bosted/domain/access-classifier'
import type { AccessOperation, AccessResource, AccessRole } from '@bosted/domain/access-log'
import type { DatabaseRef } from '../firestore/paths.ts'
import type { Caller } from '../security/caller.ts'
import type { AccessLog, AccessRecord } from './access-log.ts'
import { GroupCommit } from './group-commit.ts'

/**
 * The classifier when its starter injects none: nothing is a person's data, so nothing is logged.
 * emulator-lite knows no app's collections; the app's classifier (Bosted's:
 * `@bosted/domain/access-classifier`) says which documents and objects are whose.
 */
export const NO_PERSON_DATA: AccessClassifier = {
  document: () => null,
  object: () => null,
  prefixes: [],
}

/** The role the token's claims give (as the rules read them), or 'person' for the person themselves. */
export function roleOf(claims: Record<string, unknown>, uid: string, personId: string): AccessRole {
  if (claims.admin === true) return 'admin'
  if (claims.userRole === 'superuser') return 'superuser'
  if (typeof claims.userRole === 'string') return 'employee'
  return uid === personId ? 'person' : 'unknown'
}

/** The address the request came from (the socket's: a header could be forged by any browser). */
export function callerIpOf(req: IncomingMessage): string | null {
  return req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? null
}

type Touch = { path: string }
/** A person's data of one kind that a request touched: how many documents, the first one's path, and all. */
type Touched = { personId: string; resource: AccessResource; count: number; path: string; paths: string[] }

/** An entry of a write and the documents (or object) it covers: they carry its seq (ADR 0017). */
export type WriteEntry = { record: AccessRecord; paths: string[] }

/**
 * Records a client's reads and writes of person data in the access log, before the response is sent.
 * Privileged callers (server SDKs with the owner credential) are not recorded here: the api records
 * what it does on a staff member's behalf itself, naming that staff member (POST …/accessLog:append).
 *
 * A write's entries are appended at once. A read's entries are group-committed (issue 29): the
 * returned promise settles once they are durable, and the reply waits for it (`settle` in
 * http/core.ts). `groupCommitReads: false` appends them at once too.
 */
export function createAccessRecorder(
  log: AccessLog | null,
  options: {
    groupCommitReads?: boolean
    schedule?: (flush: () => void) => void
    /** What a path means for the log (default: nothing is a person's data). */
    classifier?: AccessClassifier
  } = {},
) {
  const classifier = options.classifier ?? NO_PERSON_DATA
  const reads =
    log !== null && options.groupCommitReads !== false
      ? new GroupCommit((records) => log.append(records), options.schedule)
      : null
  function build(
    caller: Caller,
    req: IncomingMessage,
    touched: Iterable<Touched>,
    base: Pick<AccessRecord, 'project' | 'operation' | 'serviceName' | 'methodName'> & {
      resourceNameOf: (touched: Touched) => string
    },
  ): WriteEntry[] {
    if (log === null || caller.privileged) return []
    const auth = caller.auth
    const claims = (auth?.token ?? {}) as Record<string, unknown>
    const email = typeof claims.email === 'string' ? claims.email : null
    const callerIp = callerIpOf(req)
    const records: WriteEntry[] = []
    for (const each of touched) {
      const { personId, resource, count } = each
      const record: AccessRecord = {
        project: base.project,
        personId,
        operation: base.operation,
        resource,
        resourceName: base.resourceNameOf(each),
        serviceName: base.serviceName,
        methodName: base.methodName,
        principal: {
          uid: auth?.uid ?? null,
          email,
          role: auth ? roleOf(claims, auth.uid, personId) : 'unknown',
        },
        count,
        callerIp,
      }
      records.push({ record, paths: each.paths })
    }
    return records
  }

  /** Appends the entries at once, or (reads) through the group commit: then the promise settles once they are durable. */
  function commit(entries: readonly WriteEntry[], operation: AccessOperation): void | Promise<void> {
    if (log === null || entries.length === 0) return
    const records = entries.map((entry) => entry.record)
    if (reads !== null && (operation === 'get' || operation === 'list')) return reads.commit(records)
    log.append(records)
  }

  function record(...args: Parameters<typeof build>): void | Promise<void> {
    return commit(build(...args), args[3].operation)
  }

  /** Documents grouped by person and kind of data, with how many of each (and the first one's path). */
  function group(docs: Iterable<Touch>): Touched[] {
    const groups = new Map<string, Touched>()
    for (const { path } of docs) {
      const data = classifier.document(path)
      if (data === null) continue
      const key = `${data.personId}\u0000${data.resource}`
      const existing = groups.get(key)
      if (existing) {
        existing.count += 1
        existing.paths.push(path)
      } else groups.set(key, { ...data, count: 1, path, paths: [path] })
    }
    return [...groups.values()]
  }

  /** The entry of a Firebase Storage request on a person's object (none for other objects). */
  function storageEntries(
    caller: Caller,
    req: IncomingMessage,
    project: string,
    bucket: string,
    name: string,
    operation: Extract<AccessOperation, 'get' | 'create' | 'update' | 'delete'>,
    methodName: string,
  ): WriteEntry[] {
    const data = classifier.object(name)
    if (data === null) return []
    return build(caller, req, [{ ...data, count: 1, path: name, paths: [name] }], {
      project,
      operation,
      serviceName: 'firebasestorage.googleapis.com',
      methodName,
      resourceNameOf: () => `projects/_/buckets/${bucket}/objects/${name}`,
    })
  }

  const documentsRoot = (db: DatabaseRef) => `projects/${db.project}/databases/${db.database}/documents`

  return {
    get isActive(): boolean {
      return log !== null
    },

    /** What a path means for the log (the injected classifier). */
    classifier,

    /** The read entries' group commit (null without a log or when switched off). */
    groupCommit: reads,

    /**
     * Firestore reads: single documents (get, batchGet) name each document; queries name the
     * collection they read (persons/p1/notes, or the collection group `notes` across persons).
     */
    firestoreRead(
      db: DatabaseRef,
      caller: Caller,
      req: IncomingMessage,
      methodName: string,
      docs: readonly Touch[],
      query?: { parent: string; collectionId: string; allDescendants: boolean },
    ): void | Promise<void> {
      if (log === null || caller.privileged || docs.length === 0) return
      const groups = group(docs)
      if (groups.length === 0) return
      return record(caller, req, groups, {
        project: db.project,
        operation: query ? 'list' : 'get',
        serviceName: 'firestore.googleapis.com',
        methodName: `google.firestore.v1.Firestore.${methodName}`,
        resourceNameOf: ({ resource, path }) => {
          // A single document, or a person document from a query (persons/{id}): its own path.
          if (!query || resource === 'person') return `${documentsRoot(db)}/${path}`
          const collection = query.allDescendants
            ? `${query.parent === '' ? '' : `${query.parent}/`}{path=**}/${query.collectionId}`
            : `${query.parent === '' ? '' : `${query.parent}/`}${query.collectionId}`
          return `${documentsRoot(db)}/${collection}`
        },
      })
    },

    /**
     * The entries of a commit's writes, one per person, kind of data and operation, with the
     * documents each covers; the caller appends them in the write's own transaction.
     */
    firestoreWriteEntries(
      db: DatabaseRef,
      caller: Caller,
      req: IncomingMessage,
      methodName: string,
      writes: readonly { path: string; operation: Extract<AccessOperation, 'create' | 'update' | 'delete'> }[],
    ): WriteEntry[] {
      if (log === null || caller.privileged) return []
      const entries: WriteEntry[] = []
      for (const operation of ['create', 'update', 'delete'] as const) {
        const groups = group(writes.filter((write) => write.operation === operation))
        if (groups.length === 0) continue
        entries.push(
          ...build(caller, req, groups, {
            project: db.project,
            operation,
            serviceName: 'firestore.googleapis.com',
            methodName: `google.firestore.v1.Firestore.${methodName}`,
            // One document: its path; several: their collection.
            resourceNameOf: ({ path, count }) =>
              `${documentsRoot(db)}/${count > 1 ? path.slice(0, path.lastIndexOf('/')) : path}`,
          }),
        )
      }
      return entries
    },

    /** Appends entries (in the running transaction, if any); their seqs. */
    append(records: readonly AccessRecord[]): number[] {
      return log === null ? [] : log.append(records)
    },

    /** A Firebase Storage read of a person's object (their avatar). */
    storage(
      caller: Caller,
      req: IncomingMessage,
      project: string,
      bucket: string,
      name: string,
      operation: Extract<AccessOperation, 'get' | 'create' | 'update' | 'delete'>,
      methodName: string,
    ): void | Promise<void> {
      return commit(storageEntries(caller, req, project, bucket, name, operation, methodName), operation)
    },

    storageEntries,
  }
}

export type AccessRecorder = ReturnType<typeof createAccessRecorder>
