import { isDeepStrictEqual } from 'node:util'
import { ApiError, invalid } from '../http/errors.ts'
import type { Store, StoredDocument, WriteStamp } from '../store/store.ts'
import { checkDocumentNameSize, checkDocumentSize, checkMaskPath, checkWriteFields } from './limits.ts'
import { type DatabaseRef, getField, parentOf, parseDocumentName, parseFieldPath, rootOf, setField } from './paths.ts'
import {
  arrayValues,
  compareValues,
  doubleValue,
  type Fields,
  formatTimestamp,
  INT64_MAX,
  INT64_MIN,
  isNaNValue,
  isNumber,
  parseTimestamp,
  toNumber,
  truncateTimestamps,
  type Value,
  validateFields,
  validateValue,
  valuesEqual,
} from './values.ts'

type Precondition = { exists?: boolean; updateTime?: string }
type Transform = Record<string, unknown> & { fieldPath: string }
export type Write = {
  update?: { name: string; fields?: Fields }
  delete?: string
  verify?: string
  updateMask?: { fieldPaths?: string[] }
  updateTransforms?: Transform[]
  currentDocument?: Precondition
}

export type WriteResult = { updateTime?: string; transformResults: Value[] }

/** Ascending commit times, a microsecond apart at least, so every write gets its own version. */
let lastCommitTime = 0n
export function nextCommitTime(): bigint {
  const now = BigInt(Date.now()) * 1_000_000n
  lastCommitTime = now > lastCommitTime ? now : lastCommitTime + 1000n
  return lastCommitTime
}

/** The latest time anything can have been written at: now, or the last commit if that ran ahead of the clock. */
export function latestCommitTime(): bigint {
  const now = BigInt(Date.now()) * 1_000_000n
  return now > lastCommitTime ? now : lastCommitTime
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function asWrite(raw: unknown): Write {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid('Each write must be an object')
  return raw as Write
}

function targetOf(write: Write, db: DatabaseRef): string {
  const kinds = [write.update, write.delete, write.verify].filter((kind) => kind !== undefined)
  if (kinds.length !== 1) throw invalid('A write needs exactly one of update, delete or verify')
  if (write.update !== undefined) {
    if (typeof write.update !== 'object' || write.update === null) throw invalid('update must be a document')
    return parseDocumentName(write.update.name, db)
  }
  return parseDocumentName(write.delete ?? write.verify, db)
}

function checkPrecondition(
  existing: StoredDocument | null,
  precondition: Precondition | undefined,
  path: string,
): void {
  if (precondition === undefined) return
  if (typeof precondition !== 'object' || precondition === null) throw invalid('Invalid precondition')
  if (precondition.exists === true && existing === null) throw new ApiError('NOT_FOUND', `no entity to update: ${path}`)
  if (precondition.exists === false && existing !== null)
    throw new ApiError('ALREADY_EXISTS', `entity already exists: ${path}`)
  if (precondition.updateTime !== undefined) {
    const expected = parseTimestamp(precondition.updateTime)
    if (existing === null || existing.updateTime !== expected) {
      throw new ApiError('FAILED_PRECONDITION', `the stored version of ${path} does not match the required update time`)
    }
  }
}

function applyTransform(fields: Fields, transform: Transform, commitTime: bigint): Value {
  const segments = parseFieldPath(transform.fieldPath)
  const current = getField(fields, segments)
  let result: Value
  if ('setToServerValue' in transform) {
    if (transform.setToServerValue !== 'REQUEST_TIME' && transform.setToServerValue !== 1)
      throw invalid('Unknown server value')
    result = { timestampValue: formatTimestamp(commitTime) }
  } else if ('increment' in transform || 'maximum' in transform || 'minimum' in transform) {
    const kind = 'increment' in transform ? 'increment' : 'maximum' in transform ? 'maximum' : 'minimum'
    const operand = transform[kind] as Value
    validateValue(operand)
    if (!isNumber(operand)) throw invalid(`${kind} needs a number`)
    const base: Value = current !== undefined && isNumber(current) ? current : { integerValue: '0' }
    if (kind === 'increment') {
      if ('integerValue' in base && 'integerValue' in operand) {
        // Integer overflow resolves to the int64 bound of the same sign.
        const sum = BigInt(String(base.integerValue)) + BigInt(String(operand.integerValue))
        result = { integerValue: (sum > INT64_MAX ? INT64_MAX : sum < INT64_MIN ? INT64_MIN : sum).toString() }
      } else result = doubleValue(toNumber(base) + toNumber(operand))
    } else if (current === undefined || !isNumber(current)) result = operand
    else if (isNaNValue(operand) || isNaNValue(current)) {
      // The maximum (and minimum) of any number and NaN is NaN, although NaN sorts first.
      result = isNaNValue(current) ? current : operand
    } else {
      const order = compareValues(operand, current)
      result = (kind === 'maximum' ? order > 0 : order < 0) ? operand : current
    }
  } else if ('appendMissingElements' in transform || 'removeAllFromArray' in transform) {
    const adding = 'appendMissingElements' in transform
    const operand = adding ? transform.appendMissingElements : transform.removeAllFromArray
    if (!isObject(operand)) throw invalid('array transform needs an array value')
    const values = (operand as { values?: Value[] }).values ?? []
    if (!Array.isArray(values)) throw invalid('array transform needs values')
    for (const value of values) validateValue(value)
    const existing = current !== undefined && 'arrayValue' in current ? arrayValues(current) : []
    const next = adding
      ? values.reduce<Value[]>(
          (acc, value) => (acc.some((item) => valuesEqual(item, value)) ? acc : acc.concat([value])),
          [...existing],
        )
      : existing.filter((item) => !values.some((value) => valuesEqual(item, value)))
    setField(fields, segments, { arrayValue: { values: next } })
    // The transform result of an array operation is null, as in production (the SDKs compute the array themselves).
    return { nullValue: null }
  } else throw invalid('Unknown field transform')
  setField(fields, segments, result)
  return result
}

type WriteKind = 'upsert' | 'insert' | 'update' | 'delete' | 'deleteExists' | 'verify'

function kindOf(write: Write): WriteKind {
  if (write.verify !== undefined) return 'verify'
  const exists = write.currentDocument?.exists
  if (write.delete !== undefined) return exists === true ? 'deleteExists' : 'delete'
  return exists === false ? 'insert' : exists === true ? 'update' : 'upsert'
}

/**
 * Two writes to one document in one commit that cannot both hold are refused before anything is
 * checked against the data, as the official emulator does (found by the differential): an insert
 * after anything but a delete, and an update or a must-exist delete after a delete.
 */
function checkSameDocumentWrites(writes: Write[], db: DatabaseRef): void {
  const last = new Map<string, WriteKind>()
  for (const write of writes) {
    const path = targetOf(write, db)
    const kind = kindOf(write)
    const before = last.get(path)
    const deleted = before === 'delete' || before === 'deleteExists'
    if (before !== undefined && before !== 'verify') {
      if (kind === 'insert' && !deleted) throw invalid(`Cannot ${before} then insert an entity in the same request.`)
      if (kind === 'update' && deleted) throw invalid('Cannot delete then update an entity in the same request.')
      if (kind === 'deleteExists' && deleted) throw invalid('Cannot delete then delete an entity in the same request.')
    }
    last.set(path, kind)
  }
}

/**
 * Applies writes atomically: preconditions are checked against the state as earlier writes of
 * the same commit left it; any failure rolls everything back. `stampOf` says who wrote each
 * document (and the seq of its access-log entry), kept beside it. With `afterRules`, the checks that
 * Firestore makes after the rules (a document's 1 MiB) are left there for the caller to run once the
 * rules allowed the writes, inside the same transaction.
 */
export function applyWrites(
  store: Store,
  db: DatabaseRef,
  rawWrites: unknown,
  stampOf: (path: string) => WriteStamp | null = () => null,
  afterRules?: (() => void)[],
  /** The time the rules decided the writes at (their `request.time`); else the next commit time. */
  givenCommitTime?: bigint,
): { writeResults: WriteResult[]; commitTime: string } {
  if (rawWrites !== undefined && !Array.isArray(rawWrites)) throw invalid('writes must be an array')
  const writes = ((rawWrites as unknown[] | undefined) ?? []).map(asWrite)
  for (const write of writes) {
    const target = targetOf(write, db)
    if (write.update !== undefined) checkDocumentNameSize(target)
    if (write.update?.fields !== undefined) {
      validateFields(write.update.fields)
      checkWriteFields(write.update.fields)
    }
    if (write.updateMask !== undefined) {
      const paths = isObject(write.updateMask) ? (write.updateMask.fieldPaths ?? []) : null
      if (!Array.isArray(paths) || !paths.every((path) => typeof path === 'string')) throw invalid('Invalid updateMask')
      for (const path of paths) checkMaskPath(parseFieldPath(path))
    }
    if (write.updateTransforms !== undefined) {
      if (!Array.isArray(write.updateTransforms)) throw invalid('Invalid updateTransforms')
      for (const transform of write.updateTransforms) {
        if (!isObject(transform) || typeof transform.fieldPath !== 'string') throw invalid('Invalid transform')
      }
    }
  }
  checkSameDocumentWrites(writes, db)
  const commitTime = givenCommitTime ?? nextCommitTime()
  const writeResults = store.transaction(() =>
    writes.map((write) => {
      const path = targetOf(write, db)
      const existing = store.getDocument(db.project, db.database, path)
      checkPrecondition(existing, write.currentDocument, path)
      if (write.verify !== undefined) return { updateTime: formatTimestamp(commitTime), transformResults: [] }
      if (write.delete !== undefined) {
        store.deleteDocument(db.project, db.database, path, commitTime)
        // Firestore's WriteResult: `update_time` "Not set after a delete" (the official emulator's `{}` too).
        return { transformResults: [] }
      }
      const given = structuredClone(write.update?.fields ?? {})
      truncateTimestamps(given)
      let fields: Fields
      if (write.updateMask === undefined) fields = given
      else {
        fields = structuredClone(existing?.fields ?? {})
        for (const fieldPath of write.updateMask.fieldPaths ?? []) {
          const segments = parseFieldPath(fieldPath)
          setField(fields, segments, getField(given, segments))
        }
      }
      const transformResults = (write.updateTransforms ?? []).map((transform) => {
        if (typeof transform !== 'object' || transform === null) throw invalid('Invalid transform')
        return applyTransform(fields, transform, commitTime)
      })
      // The document as it would be stored, masks and transforms applied, is what must fit in 1 MiB;
      // with rules, Google's emulator decides them first (a denied oversized write is PERMISSION_DENIED).
      const checkSize = () => checkDocumentSize(rootOf(db), path, fields)
      if (afterRules === undefined) checkSize()
      else afterRules.push(checkSize)
      // A write that leaves the document exactly as it was is no change: the document keeps its
      // version, and the result says so (the official emulator; transactions that read it stay valid).
      if (existing !== null && sameStored(existing.fields, fields))
        return { updateTime: formatTimestamp(existing.updateTime), transformResults }
      const { parent, collectionId } = parentOf(path)
      store.putDocument(
        db.project,
        db.database,
        { path, fields, createTime: existing?.createTime ?? commitTime, updateTime: commitTime },
        parent,
        collectionId,
        stampOf(path),
      )
      return { updateTime: formatTimestamp(commitTime), transformResults }
    }),
  )
  return { writeResults, commitTime: formatTimestamp(commitTime) }
}

/**
 * Whether two stored field sets are the same data: the same keys (in any order) and the same values of
 * the same types (`1` and `1.0` differ; `-0` and `0` differ; NaN is NaN), as a version change sees it.
 * Node's deep strict equality is exactly that for plain JSON-shaped data.
 */
export const sameStored = (a: Fields, b: Fields): boolean => isDeepStrictEqual(a, b)

export function toDocumentResource(db: DatabaseRef, doc: StoredDocument, mask?: string[][]): Record<string, unknown> {
  let fields = doc.fields
  if (mask !== undefined) {
    fields = {}
    for (const segments of mask) {
      const value = getField(doc.fields, segments)
      if (value !== undefined) setField(fields, segments, value)
    }
  }
  return {
    name: `${rootOf(db)}/${doc.path}`,
    fields,
    createTime: formatTimestamp(doc.createTime),
    updateTime: formatTimestamp(doc.updateTime),
  }
}
