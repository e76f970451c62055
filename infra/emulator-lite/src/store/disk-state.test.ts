import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { AuthError } from '../auth/errors.ts'
import { ApiError } from '../http/errors.ts'
import { DISK_RESERVE_FILE, DiskState, isDiskFullError } from './disk-state.ts'
import { Store } from './store.ts'

const MIB = 1024 * 1024
const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A DiskState over a real directory whose free space the test decides. */
function diskState(free: { bytes: number }) {
  const dir = mkdtempSync(join(tmpdir(), 'disk-state-'))
  dirs.push(dir)
  const lines: string[] = []
  const disk = new DiskState({
    dir,
    reserveBytes: 2 * MIB,
    checkEveryMs: 3_600_000,
    log: (line) => lines.push(line),
    freeBytes: () => free.bytes,
  })
  return { disk, dir, lines, reserve: join(dir, DISK_RESERVE_FILE) }
}

const sqliteFull = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })

test('the reserve is written at start, released when a write finds the disk full, and rewritten when space returns', () => {
  const free = { bytes: 100 * MIB }
  const { disk, lines, reserve } = diskState(free)
  expect(statSync(reserve).size).toBe(2 * MIB)
  expect(disk.status()).toMatchObject({ state: 'ok', reserveHeld: true })

  free.bytes = 10_000
  expect(disk.notice(sqliteFull)).toBe(true)
  expect(disk.isFull).toBe(true)
  expect(existsSync(reserve)).toBe(false)
  expect(disk.status()).toMatchObject({ state: 'full', reserveHeld: false })
  expect(lines).toHaveLength(1)
  expect(lines[0]).toContain('disk full')
  expect(() => disk.assertWritable('firestore')).toThrow(ApiError)
  expect(() => disk.assertWritable('storage')).toThrow(/disk is full/)
  try {
    disk.assertWritable('auth')
  } catch (error) {
    expect(error).toBeInstanceOf(AuthError)
    expect((error as AuthError).httpStatus).toBe(429)
    expect((error as AuthError).message).toMatch(/^QUOTA_EXCEEDED : RESOURCE_EXHAUSTED: /)
  }

  // The released reserve alone is not enough to leave: writes would fill it at once.
  free.bytes = 2 * MIB + 10_000
  disk.check()
  expect(disk.isFull).toBe(true)
  expect(lines).toHaveLength(1)

  free.bytes = 50 * MIB
  disk.check()
  expect(disk.isFull).toBe(false)
  expect(statSync(reserve).size).toBe(2 * MIB)
  expect(lines).toHaveLength(2)
  expect(lines[1]).toContain('disk space is back')
  disk.close()
})

test('the timer finds a disk that ran out of space before any write failed', () => {
  const free = { bytes: 100 * MIB }
  const { disk } = diskState(free)
  free.bytes = 1000
  disk.check()
  expect(disk.isFull).toBe(true)
  disk.close()
})

test('one large write that does not fit is refused, but leaves a disk with room writable', () => {
  const free = { bytes: 100 * MIB }
  const { disk } = diskState(free)
  expect(disk.notice(sqliteFull)).toBe(true)
  expect(disk.isFull).toBe(false)
  disk.close()
})

test('an I/O error counts as a full disk only when the disk is nearly full', () => {
  const ioError = Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' })
  expect(isDiskFullError(ioError)).toBe(false)
  expect(isDiskFullError(ioError, () => true)).toBe(true)
  expect(isDiskFullError(Object.assign(new Error('no space'), { code: 'ENOSPC' }))).toBe(true)
  expect(isDiskFullError(new Error('other'))).toBe(false)
})

test('in memory nothing is watched and the state stays ok', () => {
  const disk = new DiskState({ dir: null })
  expect(disk.notice(sqliteFull)).toBe(true)
  expect(disk.status()).toEqual({ state: 'ok', freeBytes: null, reserveBytes: 0, reserveHeld: false })
})

test('a transaction that runs out of space leaves SQLite and the in-memory mirror as they were', () => {
  const store = new Store({ inMemory: true })
  const doc = (path: string, text: string, time: bigint) => ({
    path,
    fields: { text: { stringValue: text } },
    createTime: time,
    updateTime: time,
  })
  store.putDocument('p', '(default)', doc('notes/a', 'old', 1n), '', 'notes')
  // SQLite answers SQLITE_FULL as on a full disk once the file would grow beyond its current size.
  const pages = store.db.pragma('page_count', { simple: true }) as number
  store.db.pragma(`max_page_count = ${pages}`)
  let caught: unknown
  try {
    store.transaction(() => {
      store.putDocument('p', '(default)', doc('notes/a', 'new', 2n), '', 'notes')
      store.putDocument('p', '(default)', doc('notes/b', 'x'.repeat(200_000), 2n), '', 'notes')
    })
  } catch (error) {
    caught = error
  }
  expect((caught as { code?: string }).code).toBe('SQLITE_FULL')
  expect(isDiskFullError(caught)).toBe(true)
  expect(store.getDocument('p', '(default)', 'notes/a')?.fields).toEqual({ text: { stringValue: 'old' } })
  expect(store.getDocument('p', '(default)', 'notes/b')).toBeNull()
  expect(
    store.listDocuments('p', '(default)', { parent: '', collectionId: 'notes', allDescendants: false }),
  ).toHaveLength(1)
  const rows = store.db.prepare('SELECT path, fields FROM documents').all()
  expect(rows).toEqual([{ path: 'notes/a', fields: JSON.stringify({ text: { stringValue: 'old' } }) }])
  store.close()
})
