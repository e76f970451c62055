import type { IncomingMessage } from 'node:http'
import { ApiError, invalid } from '../../http/errors.ts'
import type { Caller } from '../../security/caller.ts'
import type { StoredDocument } from '../../store/store.ts'
import type { DatabaseRef } from '../paths.ts'
import { parseDocumentName } from '../paths.ts'
import { runQuery } from '../query.ts'
import { type FirestoreService, parentOf, queryScope } from '../service.ts'
import { formatTimestamp } from '../values-extra.ts'
import { nextCommitTime, toDocumentResource } from '../writes.ts'

/** What a slow reader may leave unread before its stream is cut with RESOURCE_EXHAUSTED (ADR 0029). */
export const LISTEN_BUFFER_LIMIT = 16 * 1024 * 1024

/**
 * How long a stream with targets may go without a message before it is sent a global snapshot (a
 * `targetChange` with no target ids: a new read time and resume token). firebase-admin tears down and
 * resumes a Listen stream that has sent nothing for 120 s, and a resumed target is sent whole (and
 * logged again): the heartbeat spares an idle listener that. The official emulator sends none; the
 * SDKs take it as "nothing changed".
 */
export const LISTEN_HEARTBEAT_MS = 60_000

type Target = {
  id: number
  db: DatabaseRef
  kind: { documents: string[] } | { parent: string; structuredQuery: unknown }
  /** What the client was last sent: path → update time. */
  sent: Map<string, bigint>
}

export type ListenIo = {
  /** Sends one ListenResponse (proto3 JSON). */
  send(response: Record<string, unknown>): void
  /** Ends the stream with a status (gRPC trailers, a WebChannel error message). */
  fail(error: ApiError): void
  /** Unread bytes queued for this client. */
  buffered(): number
}

const grpcCode: Record<string, number> = {
  INVALID_ARGUMENT: 3,
  NOT_FOUND: 5,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  UNIMPLEMENTED: 12,
}

/**
 * One `Listen` stream, whatever carries it (gRPC in `grpc/server.ts`, WebChannel in
 * `webchannel/server.ts`): targets added and removed by the client, each decided by the rules like the
 * read it stands for (a document target as gets, a query target as a list), answered with ADD, the
 * documents, CURRENT and a global snapshot; after each commit on its database a target is re-checked
 * and, if what it matches changed, sent the difference (where the official emulator re-sends it whole
 * with RESET); when a project's rules are replaced its targets are re-checked too, so one the new rules
 * deny is removed with PERMISSION_DENIED at once. Each snapshot that delivers documents writes its Adgangslog entries, for the documents
 * it delivers, before it leaves. A stream with targets that has been quiet for a heartbeat is sent a
 * global snapshot.
 */
export class ListenSession {
  private readonly targets = new Map<number, Target>()
  private queue: Promise<void> = Promise.resolve()
  private closed = false
  private lastSent = Date.now()
  private readonly heartbeat: ReturnType<typeof setInterval>
  private readonly watcher = (project: string, database: string) => {
    this.enqueue(() => this.update((target) => target.db.project === project && target.db.database === database))
  }
  private readonly rulesWatcher = (project: string) => {
    this.enqueue(() => this.update((target) => target.db.project === project))
  }

  constructor(
    private readonly fs: FirestoreService,
    private readonly caller: Caller,
    private readonly incoming: IncomingMessage,
    private readonly io: ListenIo,
    { heartbeatMs = LISTEN_HEARTBEAT_MS }: { heartbeatMs?: number } = {},
  ) {
    fs.store.documentWatchers.add(this.watcher)
    fs.rulesets.firestoreWatchers.add(this.rulesWatcher)
    // Queued behind any re-check under way, so its read time never runs ahead of what was sent.
    this.heartbeat = setInterval(
      () => {
        if (this.targets.size > 0 && Date.now() - this.lastSent >= heartbeatMs)
          this.enqueue(() => this.beat(heartbeatMs))
      },
      Math.max(10, Math.floor(heartbeatMs / 4)),
    )
    this.heartbeat.unref()
  }

  close(): void {
    clearInterval(this.heartbeat)
    this.closed = true
    this.fs.store.documentWatchers.delete(this.watcher)
    this.fs.rulesets.firestoreWatchers.delete(this.rulesWatcher)
  }

  /** One ListenRequest, in arrival order. */
  receive(request: Record<string, unknown>): void {
    this.enqueue(async () => {
      if (request.addTarget !== undefined) await this.add(request.addTarget as Record<string, unknown>)
      else if (request.removeTarget !== undefined) this.remove(Number(request.removeTarget))
    })
  }

  private enqueue(step: () => void | Promise<void>): void {
    this.queue = this.queue
      .then(() => (this.closed ? undefined : step()))
      .catch((error: unknown) => {
        this.io.fail(error instanceof ApiError ? error : new ApiError('INTERNAL', 'Internal error'))
        this.close()
      })
  }

  private async add(raw: Record<string, unknown>): Promise<void> {
    const id = Number(raw.targetId ?? 0)
    if (!Number.isInteger(id) || id <= 0) throw invalid('target_id must be a positive integer')
    if (this.targets.has(id)) throw invalid(`Target ${id} is already active`)
    let watched: ReturnType<typeof targetOf>
    try {
      watched = targetOf(raw)
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
      // A target that names nothing valid (a reserved id, a bad path) is refused on its own, as the
      // official emulator does: ADD, then REMOVE with the cause; the stream and its other targets go on.
      this.send({ targetChange: { targetChangeType: 'ADD', targetIds: [id] } })
      this.reject(id, error)
      return
    }
    const target: Target = { id, ...watched, sent: new Map() }
    this.targets.set(id, target)
    this.send({ targetChange: { targetChangeType: 'ADD', targetIds: [id] } })
    // A resumed target may hold documents deleted since: start it over (any token is accepted).
    await this.refresh(target, raw.resumeToken !== undefined || raw.readTime !== undefined ? 'resume' : 'initial')
  }

  /** Sends one ListenResponse, noting when (for the heartbeat). */
  private send(response: Record<string, unknown>): void {
    this.lastSent = Date.now()
    this.io.send(response)
  }

  private beat(heartbeatMs: number): void {
    if (this.targets.size === 0 || Date.now() - this.lastSent < heartbeatMs) return
    const readTime = formatTimestamp(nextCommitTime())
    this.send({ targetChange: { resumeToken: Buffer.from(readTime).toString('base64'), readTime } })
  }

  /** Removes a target with the cause, which the SDK hands to that target's listener. */
  private reject(id: number, error: ApiError): void {
    this.send({
      targetChange: {
        targetChangeType: 'REMOVE',
        targetIds: [id],
        cause: { code: grpcCode[error.status] ?? 2, message: error.message },
      },
    })
  }

  private remove(id: number): void {
    if (!this.targets.delete(id)) return
    this.send({ targetChange: { targetChangeType: 'REMOVE', targetIds: [id] } })
  }

  /**
   * After a commit (or new rules): every target `affected` picks is re-checked, and one global snapshot
   * follows the targets that changed, as the official emulator sends it. A global snapshot after each
   * target would raise the SDK's snapshot between them, when a document that two targets match has
   * reached only the first (the second's view then comes from the SDK's cache; ADR 0029).
   */
  private async update(affected: (target: Target) => boolean): Promise<void> {
    let changed = false
    for (const target of [...this.targets.values()])
      if (affected(target) && (await this.refresh(target, 'update', { global: false }))) changed = true
    if (changed && !this.closed) this.sendGlobal()
  }

  /** The global snapshot: a read time and resume token for every target, which raises the SDK's snapshot. */
  private sendGlobal(): void {
    const readTime = formatTimestamp(nextCommitTime())
    this.send({ targetChange: { resumeToken: Buffer.from(readTime).toString('base64'), readTime } })
  }

  /**
   * Re-checks the target and sends its documents: all when added, all after a RESET when resumed,
   * and after a commit only the difference from what the client was sent (changed documents,
   * `documentDelete`/`documentRemove` for the ones gone), then CURRENT and (unless `global` is false,
   * when the caller sends one for several targets) the global snapshot. Returns whether it sent anything.
   */
  private async refresh(
    target: Target,
    mode: 'initial' | 'resume' | 'update',
    { global = true }: { global?: boolean } = {},
  ): Promise<boolean> {
    if (!this.targets.has(target.id)) return false
    let docs: StoredDocument[]
    try {
      docs = this.read(target)
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
      // A denied (or invalid) target is removed with its cause; the stream goes on.
      this.targets.delete(target.id)
      this.reject(target.id, error)
      return false
    }
    // After a commit only what changed leaves (and is logged): the documents added or updated, the
    // ones deleted or no longer matching; a new or resumed target is sent whole.
    const changed = mode === 'update' ? docs.filter((doc) => target.sent.get(doc.path) !== doc.updateTime) : docs
    const current = new Set(docs.map((doc) => doc.path))
    const gone = mode === 'update' ? [...target.sent.keys()].filter((path) => !current.has(path)) : []
    if (mode === 'update' && changed.length === 0 && gone.length === 0) return false
    const recorder = this.fs.recorder
    if (recorder && changed.length > 0) {
      const scope = 'parent' in target.kind ? queryScope(target.kind.parent, target.kind.structuredQuery) : undefined
      await recorder.firestoreRead(target.db, this.caller, this.incoming, 'Listen', changed, scope)
    }
    if (this.closed || !this.targets.has(target.id)) return false
    if (this.io.buffered() > LISTEN_BUFFER_LIMIT)
      throw new ApiError('RESOURCE_EXHAUSTED', 'The client reads its Listen stream too slowly')
    const readTime = formatTimestamp(nextCommitTime())
    const resumeToken = Buffer.from(readTime).toString('base64')
    if (mode === 'resume') {
      this.send({ targetChange: { targetChangeType: 'RESET', targetIds: [target.id], readTime } })
      target.sent = new Map()
    }
    for (const path of gone) {
      target.sent.delete(path)
      const name = `${documentsRoot(target.db)}/${path}`
      // Deleted, or still there but out of the target (a changed field, pushed out of a limit).
      const deleted = this.fs.store.getDocument(target.db.project, target.db.database, path) === null
      this.send(
        deleted
          ? { documentDelete: { document: name, removedTargetIds: [target.id], readTime } }
          : { documentRemove: { document: name, removedTargetIds: [target.id], readTime } },
      )
    }
    for (const doc of changed) {
      target.sent.set(doc.path, doc.updateTime)
      this.send({ documentChange: { document: toDocumentResource(target.db, doc), targetIds: [target.id] } })
    }
    this.send({ targetChange: { targetChangeType: 'CURRENT', targetIds: [target.id], resumeToken, readTime } })
    if (global) this.send({ targetChange: { resumeToken, readTime } })
    return true
  }

  private read(target: Target): StoredDocument[] {
    const { fs, caller } = this
    const { db, kind } = target
    if ('documents' in kind) {
      const docs = kind.documents.map((path) => fs.store.getDocument(db.project, db.database, path))
      kind.documents.forEach((path, index) => {
        fs.guard.get(db, caller, path, docs[index]?.fields ?? null)
      })
      return docs.filter((doc) => doc !== null)
    }
    fs.guard.list(db, caller, kind.parent, kind.structuredQuery)
    return runQuery(fs.store, db, kind.parent, kind.structuredQuery, undefined, fs.queryOptions)
  }
}

/** What a target watches, from its `documents` or `query`; an ApiError when it names nothing valid. */
function targetOf(raw: Record<string, unknown>): { db: DatabaseRef; kind: Target['kind'] } {
  const database =
    (raw.query as { parent?: unknown } | undefined)?.parent ??
    (raw.documents as { documents?: string[] } | undefined)?.documents?.[0]
  const db = databaseOf(database)
  if (raw.documents !== undefined) {
    const names = (raw.documents as { documents?: unknown }).documents
    if (!Array.isArray(names) || names.length === 0) throw invalid('documents target needs documents')
    return { db, kind: { documents: names.map((name) => parseDocumentName(name, db)) } }
  }
  if (raw.query !== undefined) {
    const query = raw.query as { parent?: unknown; structuredQuery?: unknown }
    const segments = String(query.parent).split('/documents')[1]?.split('/').filter(Boolean) ?? []
    return { db, kind: { parent: parentOf(segments), structuredQuery: query.structuredQuery } }
  }
  throw invalid('A target needs documents or a query')
}

const documentsRoot = (db: DatabaseRef) => `projects/${db.project}/databases/${db.database}/documents`

function databaseOf(name: unknown): DatabaseRef {
  const match = typeof name === 'string' ? /^projects\/([^/]+)\/databases\/([^/]+)/.exec(name) : null
  if (!match) throw invalid('A target needs a resource name')
  return { project: match[1] as string, database: match[2] as string }
}
