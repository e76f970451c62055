import { randomUUID } from 'node:crypto'
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, truncateSync, writeSync } from 'node:fs'
import type { IncomingMessage } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ApiError } from '../http/errors.ts'

/**
 * Resumable upload sessions (issue 29 finding 5; docs/decisions/0021-bounds.md). A session's bytes
 * are spooled to a file of its own, never kept in memory; a session holds at most the size its
 * start declared and never more than `maxBytes`; a session untouched for `idleMs` is dropped with
 * its file; a caller has at most `maxPerCaller` open sessions and everyone together `maxOpen`.
 * Ending a session any way (finalize, cancel, refusal, expiry, reset) deletes its file.
 */
export type UploadSessionOptions = {
  /**
   * Where the spool files go: `<dataDir>/upload-spool` (emptied at start: sessions do not survive a
   * restart), or a new directory under the OS temp dir (removed at close) when not given.
   */
  spoolDir?: string
  /** The most bytes one session may hold, whatever it declares (default 64 MiB). */
  maxBytes?: number
  /** A session not touched for this long is dropped (default 1 h). */
  idleMs?: number
  /** Open sessions per caller (default 8). */
  maxPerCaller?: number
  /** Open sessions in all (default 256). */
  maxOpen?: number
  /** The clock (tests inject one). */
  now?: () => number
}

export type UploadSession = {
  id: string
  bucket: string
  name: string
  metadata: Record<string, unknown>
  /** The size the start declared (`X-Goog-Upload-Header-Content-Length`), or null. */
  declared: number | null
  /** Bytes received so far (the spool file's length). */
  size: number
  /** The spool file. */
  file: string
  /** Who started it: `owner`, `uid:<uid>` or `address:<remote address>`. */
  caller: string
  lastActive: number
  /** A chunk is being written: the session is neither expired nor given a second chunk meanwhile. */
  busy: boolean
}

export const DEFAULT_MAX_UPLOAD_BYTES = 64 * 1024 * 1024
export const DEFAULT_UPLOAD_IDLE_MS = 60 * 60_000

export class UploadSessions {
  readonly spoolDir: string
  readonly maxBytes: number
  readonly idleMs: number
  private readonly maxPerCaller: number
  private readonly maxOpen: number
  private readonly now: () => number
  private readonly ownsSpoolDir: boolean
  private readonly sessions = new Map<string, UploadSession>()
  private readonly timer: NodeJS.Timeout

  constructor(options: UploadSessionOptions = {}) {
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_UPLOAD_BYTES
    this.idleMs = options.idleMs ?? DEFAULT_UPLOAD_IDLE_MS
    this.maxPerCaller = options.maxPerCaller ?? 8
    this.maxOpen = options.maxOpen ?? 256
    this.now = options.now ?? Date.now
    if (options.spoolDir === undefined) {
      this.spoolDir = mkdtempSync(join(tmpdir(), 'emulator-lite-upload-spool-'))
      this.ownsSpoolDir = true
    } else {
      // Files of a previous run belong to sessions that no longer exist.
      rmSync(options.spoolDir, { recursive: true, force: true })
      mkdirSync(options.spoolDir, { recursive: true, mode: 0o700 })
      this.spoolDir = options.spoolDir
      this.ownsSpoolDir = false
    }
    this.timer = setInterval(() => this.sweep(), Math.min(this.idleMs, 60_000))
    this.timer.unref()
  }

  /** How many sessions are open (for tests and figures). */
  get size(): number {
    return this.sessions.size
  }

  /** Opens a session with an empty spool file; 429 RESOURCE_EXHAUSTED when the caller (or everyone) has too many. */
  start(init: {
    bucket: string
    name: string
    metadata: Record<string, unknown>
    declared: number | null
    caller: string
  }): UploadSession {
    this.sweep()
    if (init.declared !== null && init.declared > this.maxBytes) {
      throw new ApiError(
        'PAYLOAD_TOO_LARGE',
        `Upload of ${init.declared} bytes exceeds the largest allowed, ${this.maxBytes} bytes`,
      )
    }
    let mine = 0
    for (const session of this.sessions.values()) if (session.caller === init.caller) mine += 1
    if (mine >= this.maxPerCaller)
      throw new ApiError('RESOURCE_EXHAUSTED', `Too many open upload sessions (${this.maxPerCaller}) for this caller`)
    if (this.sessions.size >= this.maxOpen)
      throw new ApiError('RESOURCE_EXHAUSTED', `Too many open upload sessions (${this.maxOpen})`)
    const id = randomUUID()
    const file = join(this.spoolDir, id)
    closeSync(openSync(file, 'wx', 0o600))
    const session: UploadSession = { ...init, id, size: 0, file, lastActive: this.now(), busy: false }
    this.sessions.set(id, session)
    return session
  }

  /** The open session `id` (touched), or undefined when it never was, has ended or has expired. */
  get(id: string): UploadSession | undefined {
    this.sweep()
    const session = this.sessions.get(id)
    if (session) session.lastActive = this.now()
    return session
  }

  /**
   * Streams a request body onto the end of the session's spool file. More than the declared size (or
   * than maxBytes) ends the session and answers 400 (declared) or 413 (maxBytes); a broken request
   * leaves the file as it was before it.
   */
  append(session: UploadSession, req: IncomingMessage): Promise<void> {
    if (session.busy) return Promise.reject(new ApiError('ABORTED', 'Another chunk of this upload is in progress'))
    if (req.readableEnded) return Promise.resolve()
    session.busy = true
    const limit = session.declared ?? this.maxBytes
    return new Promise<void>((resolve, reject) => {
      const fd = openSync(session.file, 'a')
      let received = 0
      let done = false
      const finish = (error?: Error) => {
        if (done) return
        done = true
        closeSync(fd)
        session.busy = false
        session.lastActive = this.now()
        if (error === undefined) {
          session.size += received
          resolve()
          return
        }
        // Unless the session ended (too big), the file goes back to its length before this request.
        if (this.sessions.get(session.id) === session) truncateSync(session.file, session.size)
        reject(error)
      }
      req.on('data', (chunk: Buffer) => {
        if (done) return
        if (session.size + received + chunk.length > limit) {
          this.end(session)
          finish(
            session.declared !== null
              ? new ApiError('INVALID_ARGUMENT', `Upload exceeds its declared size of ${session.declared} bytes`)
              : new ApiError('PAYLOAD_TOO_LARGE', `Upload exceeds the largest allowed, ${this.maxBytes} bytes`),
          )
          return
        }
        try {
          let written = 0
          while (written < chunk.length) written += writeSync(fd, chunk, written)
          received += chunk.length
        } catch (error) {
          finish(error as Error)
        }
      })
      req.on('end', () => finish())
      req.on('error', (error: Error) => finish(error))
      req.on('close', () => {
        if (!req.complete) finish(new Error('request aborted'))
      })
    })
  }

  /** The bytes received (read back from the spool at finalize, bounded by maxBytes). */
  read(session: UploadSession): Buffer {
    return readFileSync(session.file)
  }

  /** Ends the session and deletes its spool file (finalize, cancel, refusal). */
  end(session: UploadSession): void {
    if (this.sessions.get(session.id) === session) this.sessions.delete(session.id)
    rmSync(session.file, { force: true })
  }

  /** Drops every session idle for idleMs or longer, with its file. */
  sweep(): void {
    const cutoff = this.now() - this.idleMs
    for (const session of this.sessions.values()) {
      if (!session.busy && session.lastActive <= cutoff) this.end(session)
    }
  }

  /** Ends every session (`/internal/reset`). */
  clear(): void {
    for (const session of [...this.sessions.values()]) this.end(session)
  }

  /** Ends every session and stops the sweep; a spool directory of its own is removed. */
  close(): void {
    clearInterval(this.timer)
    this.clear()
    if (this.ownsSpoolDir) rmSync(this.spoolDir, { recursive: true, force: true })
  }
}
