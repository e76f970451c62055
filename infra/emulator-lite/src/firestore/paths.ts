import { invalid } from '../http/errors.ts'
import { checkIdSize } from './limits.ts'
import type { Fields, Value } from './values.ts'

/** `projects/{p}/databases/{db}/documents` — the root every document name starts with. */
export type DatabaseRef = { project: string; database: string }

export const rootOf = (db: DatabaseRef) => `projects/${db.project}/databases/${db.database}/documents`

/** Splits a full document name into its database and relative path (`users/alice`), validating both. */
export function parseDocumentName(name: unknown, db: DatabaseRef): string {
  if (typeof name !== 'string') throw invalid('Document name must be a string')
  const root = rootOf(db)
  if (!name.startsWith(`${root}/`)) throw invalid(`Document name "${name.slice(0, 200)}" is not in ${root}`)
  const path = name.slice(root.length + 1)
  assertDocumentPath(path)
  return path
}

export function assertDocumentPath(path: string): void {
  const segments = path.split('/')
  if (segments.length % 2 !== 0 || segments.some((segment) => segment.length === 0)) {
    throw invalid(`Invalid document path: ${path.slice(0, 200)}`)
  }
  segments.forEach((segment, index) => {
    checkIdSize(segment, index % 2 === 0)
  })
  if (segments.some((segment) => segment === '.' || segment === '..')) throw invalid('Invalid document path segment')
  for (const segment of segments) assertNotReserved(segment)
}

const RESERVED_ID = /^__.*__$/
// `__id<n>__` is how numeric (Datastore) ids are spelled; firebase-admin uses them as range bounds in queries.
const NUMERIC_ID = /^__id-?\d+__$/

/** Ids matching `__.*__` are reserved by Firestore, for collections and documents alike. */
export function assertNotReserved(id: string): void {
  if (RESERVED_ID.test(id) && !NUMERIC_ID.test(id))
    throw invalid(`Resource id "${id.slice(0, 200)}" is invalid because it is reserved.`)
}

export function parentOf(path: string): { parent: string; collectionId: string } {
  const segments = path.split('/')
  const collectionId = segments[segments.length - 2] ?? ''
  return { parent: segments.slice(0, -2).join('/'), collectionId }
}

/** Splits a field path on dots, honouring backtick-quoted segments (``map.`dotted.key` ``). */
export function parseFieldPath(path: unknown): string[] {
  if (typeof path !== 'string' || path.length === 0) throw invalid('Invalid field path')
  const segments: string[] = []
  let current = ''
  let quoted = false
  for (let i = 0; i < path.length; i++) {
    const char = path[i] as string
    if (quoted) {
      if (char === '\\') current += path[++i] ?? ''
      else if (char === '`') quoted = false
      else current += char
    } else if (char === '`') quoted = true
    else if (char === '.') {
      segments.push(current)
      current = ''
    } else current += char
  }
  if (quoted) throw invalid(`Unterminated backtick in field path ${path}`)
  segments.push(current)
  if (segments.some((segment) => segment.length === 0)) throw invalid(`Invalid field path ${path}`)
  return segments
}

export function getField(fields: Fields, segments: string[]): Value | undefined {
  let current: Value | undefined = { mapValue: { fields } }
  for (const segment of segments) {
    const inner: Fields | undefined = (current?.mapValue as { fields?: Fields } | undefined)?.fields
    if (!inner) return undefined
    current = inner[segment]
  }
  return current
}

export function setField(fields: Fields, segments: string[], value: Value | undefined): void {
  let target = fields
  for (const segment of segments.slice(0, -1)) {
    const existing = target[segment]
    const inner = (existing?.mapValue as { fields?: Fields } | undefined)?.fields
    if (existing && 'mapValue' in existing && inner) target = inner
    else if (value === undefined) return
    else {
      const created: Fields = {}
      target[segment] = { mapValue: { fields: created } }
      target = created
    }
  }
  const last = segments[segments.length - 1] as string
  if (value === undefined) delete target[last]
  else target[last] = value
}
