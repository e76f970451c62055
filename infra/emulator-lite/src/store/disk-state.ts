import { closeSync, fsyncSync, openSync, rmSync, statfsSync, statSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { AuthError } from '../auth/errors.ts'
import { ApiError } from '../http/errors.ts'

/** The file that holds the reserve, beside the SQLite files (same file system). */
export const DISK_RESERVE_FILE = 'disk-reserve'
export const DEFAULT_DISK_RESERVE_BYTES = 16 * 1024 * 1024
const MIB = 1024 * 1024

/** What writes answer while the disk is full, in words an operator can act on. */
export const DISK_FULL_MESSAGE =
  "emulator-lite's data disk is full: nothing can be stored until space is freed there. Reads still work."

/** Firestore's and Storage's answer: 429 RESOURCE_EXHAUSTED, as Google answers an exhausted resource. */
export const diskFullApiError = () => new ApiError('RESOURCE_EXHAUSTED', DISK_FULL_MESSAGE)

/**
 * Auth's answer in the Identity Toolkit's shape: `QUOTA_EXCEEDED` (the web SDK's and firebase-admin's
 * `auth/quota-exceeded`), its detail naming RESOURCE_EXHAUSTED so servers can tell it from a quota.
 */
export const diskFullAuthError = () =>
  new AuthError(`QUOTA_EXCEEDED : RESOURCE_EXHAUSTED: ${DISK_FULL_MESSAGE}`, 429, 'RESOURCE_EXHAUSTED')

/**
 * Whether an error says the disk has no room: SQLITE_FULL from better-sqlite3, ENOSPC/EDQUOT from
 * node:fs. SQLite reports some write failures as SQLITE_IOERR_*; those count only when `isNearlyFull`
 * says the disk is (nearly) full, since they can also be a failing disk.
 */
export function isDiskFullError(error: unknown, isNearlyFull: () => boolean = () => false): boolean {
  const code = (error as { code?: unknown } | null)?.code
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') return true
  return typeof code === 'string' && code.startsWith('SQLITE_IOERR') && isNearlyFull()
}

/** Runs housekeeping that can wait (pruning) and skips it when the disk has no room for it. */
export function unlessDiskFull(work: () => unknown): void {
  try {
    work()
  } catch (error) {
    if (!isDiskFullError(error)) throw error
  }
}

export type DiskStatus = {
  state: 'ok' | 'full'
  /** Since when the disk is full (ISO 8601), while it is. */
  since?: string
  /** Bytes free for emulator-lite on its data disk at the last check (null in memory). */
  freeBytes: number | null
  /** The reserve's size, and whether it is on disk now (released while full). */
  reserveBytes: number
  reserveHeld: boolean
}

export type DiskStateOptions = {
  /** The data directory; null in memory (then the state is always ok). */
  dir: string | null
  /** The reserve kept on disk while all is well and released when the disk fills (0: none). */
  reserveBytes?: number
  /** How often the free space is checked (ms). */
  checkEveryMs?: number
  /** One line on entering and on leaving the full state (default: stdout, beside the ready line). */
  log?: (line: string) => void
  /** Free bytes of the data directory's file system (tests). */
  freeBytes?: (dir: string) => number
}

/**
 * Whether emulator-lite's data disk has room (ADR 0018). While it is full, writes are refused at once
 * with RESOURCE_EXHAUSTED, and reads go on: the reserve, a file of `reserveBytes` written at start,
 * is deleted when the disk fills, so the access-log entries that reads need still find room.
 * A timer checks the free space: below `enterBelow` the disk counts as full before a write fails;
 * once there is room for the reserve again plus as much again, the reserve is rewritten and writes
 * are accepted again.
 */
export class DiskState {
  readonly dir: string | null
  readonly reserveBytes: number
  private full = false
  private fullSince: Date | null = null
  private reserveHeld = false
  private lastFree: number | null = null
  private readonly timer: NodeJS.Timeout | null = null
  private readonly log: (line: string) => void
  private readonly freeOf: (dir: string) => number
  /** Below this the disk counts as full even before a write fails. */
  private readonly enterBelow: number
  /** Room needed to leave the full state: the reserve, and as much again for writes. */
  private readonly leaveAbove: number

  constructor(options: DiskStateOptions) {
    this.dir = options.dir
    this.reserveBytes = options.dir === null ? 0 : (options.reserveBytes ?? DEFAULT_DISK_RESERVE_BYTES)
    this.log = options.log ?? ((line) => console.log(line))
    this.freeOf = options.freeBytes ?? freeBytesOf
    this.enterBelow = Math.min(MIB, Math.max(this.reserveBytes / 4, 64 * 1024))
    this.leaveAbove = this.reserveBytes + Math.max(this.reserveBytes, MIB)
    if (this.dir === null) return
    if (this.reserveBytes > 0 && !this.writeReserve()) {
      this.enter('there is no room for the reserve')
    } else this.check()
    this.timer = setInterval(() => this.check(), options.checkEveryMs ?? 2_000)
    this.timer.unref()
  }

  get isFull(): boolean {
    return this.full
  }

  status(): DiskStatus {
    return {
      state: this.full ? 'full' : 'ok',
      ...(this.fullSince ? { since: this.fullSince.toISOString() } : {}),
      freeBytes: this.lastFree,
      reserveBytes: this.reserveBytes,
      reserveHeld: this.reserveHeld,
    }
  }

  /** Refuses a write at once while the disk is full (Auth in its own error shape). */
  assertWritable(service: 'firestore' | 'storage' | 'auth' = 'firestore'): void {
    if (this.full) throw service === 'auth' ? diskFullAuthError() : diskFullApiError()
  }

  /**
   * Whether `error` is a lack of space; if so, and the disk is nearly full, enters the full state
   * (a single large write that does not fit leaves the state alone).
   */
  notice(error: unknown): boolean {
    if (!isDiskFullError(error, () => this.nearlyFull())) return false
    if (!this.full && this.nearlyFull()) this.enter(`a write failed (${String((error as { code?: unknown }).code)})`)
    return true
  }

  /** Checks the free space: enters or leaves the full state as it says. */
  check(): void {
    if (this.dir === null) return
    const free = this.measure()
    if (free === null) return
    if (!this.full) {
      if (free < this.enterBelow) this.enter('free space ran out')
      return
    }
    if (free < this.leaveAbove) return
    if (this.reserveBytes > 0 && !this.reserveHeld && !this.writeReserve()) return
    this.full = false
    this.fullSince = null
    this.log(
      `emulator-lite: disk space is back (${mib(this.measure() ?? free)} free in ${this.dir}): writes are accepted again${this.reserveBytes > 0 ? `, the ${mib(this.reserveBytes)} reserve is restored` : ''}`,
    )
  }

  close(): void {
    if (this.timer) clearInterval(this.timer)
  }

  private nearlyFull(): boolean {
    if (this.dir === null) return false
    const free = this.measure()
    // Free space unknown: believe the error.
    return free === null || free < this.leaveAbove - (this.reserveHeld ? this.reserveBytes : 0)
  }

  private enter(why: string): void {
    if (this.full) return
    this.full = true
    this.fullSince = new Date()
    const released = this.releaseReserve()
    this.log(
      `emulator-lite: disk full (${why}; ${mib(this.measure() ?? 0)} free in ${this.dir}): writes answer RESOURCE_EXHAUSTED, reads go on${released ? ` (the ${mib(this.reserveBytes)} reserve is released for the access log)` : ''}; writes resume by themselves once ${mib(this.leaveAbove)} are free`,
    )
  }

  private measure(): number | null {
    if (this.dir === null) return null
    try {
      this.lastFree = this.freeOf(this.dir)
    } catch {
      return null
    }
    return this.lastFree
  }

  private get reserveFile(): string {
    return join(this.dir as string, DISK_RESERVE_FILE)
  }

  /** Writes the reserve (real blocks, not a sparse file); false when there is no room for it. */
  private writeReserve(): boolean {
    const file = this.reserveFile
    try {
      if (statSync(file).size === this.reserveBytes) {
        this.reserveHeld = true
        return true
      }
    } catch {
      // not there yet
    }
    let fd: number | null = null
    try {
      fd = openSync(file, 'w', 0o600)
      const chunk = Buffer.alloc(Math.min(MIB, this.reserveBytes))
      for (let written = 0; written < this.reserveBytes; ) {
        written += writeSync(fd, chunk, 0, Math.min(chunk.length, this.reserveBytes - written))
      }
      fsyncSync(fd)
      closeSync(fd)
      this.reserveHeld = true
      return true
    } catch (error) {
      if (fd !== null) closeSync(fd)
      rmSync(file, { force: true })
      if (!isDiskFullError(error)) throw error
      return false
    }
  }

  private releaseReserve(): boolean {
    if (this.dir === null || this.reserveBytes === 0) return false
    rmSync(this.reserveFile, { force: true })
    const held = this.reserveHeld
    this.reserveHeld = false
    return held
  }
}

function freeBytesOf(dir: string): number {
  const stats = statfsSync(dir)
  return Number(stats.bavail) * Number(stats.bsize)
}

const mib = (bytes: number) => `${(bytes / MIB).toFixed(1)} MiB`
