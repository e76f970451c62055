import { Readable } from 'node:stream'
import { describeAccess, formatAccessTime } from '@bosted/domain/access-log'
import { toCsv } from '@bosted/domain/csv'
import { daAccessLog, daExportSummary } from '@bosted/domain/messages/da-access-log'
import { displayName } from '@bosted/domain/names'
import {
  notesPath,
  PERSON_SUBCOLLECTIONS,
  personAnswersPath,
  personObjectsPrefix,
  personPath,
  registrationsPath,
} from '@bosted/domain/paths'
import type { DocumentData, Firestore, QueryDocumentSnapshot } from 'firebase-admin/firestore'
import { FieldPath } from 'firebase-admin/firestore'
import { ZipFile } from 'yazl'
import { namesOf, toEntry, withNames } from '../../lib/access-entries.ts'
import type { Firebase } from '../../lib/firebase.ts'

/** Documents per Firestore page and log entries per log page: what the export holds in memory at once. */
const PAGE = 500

/** Every document of a collection, a page at a time (nothing of the whole collection is held at once). */
async function* pages(db: Firestore, path: string): AsyncGenerator<QueryDocumentSnapshot<DocumentData>[]> {
  let last: string | null = null
  for (;;) {
    let query = db.collection(path).orderBy(FieldPath.documentId()).limit(PAGE)
    if (last !== null) query = query.startAfter(last)
    const snapshot = await query.get()
    if (snapshot.empty) return
    yield snapshot.docs
    if (snapshot.size < PAGE) return
    last = snapshot.docs[snapshot.docs.length - 1]?.id ?? null
  }
}

const withId = (doc: QueryDocumentSnapshot<DocumentData>) => ({ id: doc.id, ...doc.data() })

/** A JSON array written element by element. */
async function* jsonArray(db: Firestore, path: string): AsyncGenerator<string> {
  yield '['
  let first = true
  for await (const docs of pages(db, path)) {
    for (const doc of docs) {
      yield `${first ? '' : ','}\n    ${JSON.stringify(withId(doc))}`
      first = false
    }
  }
  yield first ? ']' : '\n  ]'
}

const escapeHtml = (text: unknown) =>
  String(text ?? '').replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] as string,
  )

export type ExportInput = {
  firebase: Firebase
  personId: string
  person: DocumentData
  exportedBy: { uid: string; name: string | null }
  exportedAt: Date
}

type Account = Awaited<ReturnType<typeof accountOf>>

/** The person's account without secrets (no password hash, salt or tokens). */
async function accountOf(firebase: Firebase, uid: string) {
  try {
    const record = await firebase.auth.getUser(uid)
    return {
      uid: record.uid,
      email: record.email ?? null,
      displayName: record.displayName ?? null,
      disabled: record.disabled,
      createdAt: record.metadata.creationTime,
      lastSignInAt: record.metadata.lastSignInTime ?? null,
      providers: record.providerData.map((provider) => provider.providerId),
    }
  } catch (error) {
    if ((error as { code?: unknown }).code === 'auth/user-not-found') return null
    throw error
  }
}

/** The whole access log of the person, a page at a time, with names. */
async function* logPages(firebase: Firebase, personId: string) {
  let pageToken: string | undefined
  do {
    const page = await firebase.accessLog.list(firebase.firestoreProjectId, personId, { pageSize: 1000, pageToken })
    const entries = page.records.map((record) => toEntry(record, personId))
    const names = await namesOf(
      firebase.db,
      entries.flatMap((entry) => (entry.principal.uid ? [entry.principal.uid] : [])),
    )
    yield withNames(entries, names)
    pageToken = page.nextPageToken ?? undefined
  } while (pageToken !== undefined)
}

async function* dataJson(input: ExportInput, account: Account, files: { name: string; contentType: string | null }[]) {
  const { firebase, personId, person } = input
  yield `{\n  "exportedAt": ${JSON.stringify(input.exportedAt.toISOString())},\n`
  yield `  "exportedBy": ${JSON.stringify(input.exportedBy)},\n`
  yield `  "person": ${JSON.stringify({ id: personId, ...person })},\n`
  yield `  "account": ${JSON.stringify(account)},\n`
  for (const collection of PERSON_SUBCOLLECTIONS) {
    yield `  ${JSON.stringify(collection)}: `
    yield* jsonArray(firebase.db, `${personPath(personId)}/${collection}`)
    yield ',\n'
  }
  yield `  "files": ${JSON.stringify(files.map((file) => ({ file: `filer/${file.name}`, contentType: file.contentType })))}\n}\n`
}

async function* logJson(firebase: Firebase, personId: string) {
  yield '['
  let first = true
  for await (const entries of logPages(firebase, personId)) {
    for (const entry of entries) {
      yield `${first ? '' : ','}\n  ${JSON.stringify(entry)}`
      first = false
    }
  }
  yield first ? ']\n' : '\n]\n'
}

async function* logCsv(firebase: Firebase, personId: string) {
  const text = daAccessLog
  yield toCsv([text.csvHeader])
  for await (const entries of logPages(firebase, personId)) {
    // toCsv starts every file with a BOM; only the first chunk may have it.
    yield toCsv(
      entries.map((entry) => [
        formatAccessTime(entry.timestamp),
        entry.principal.name,
        entry.principal.email,
        text.roles[entry.principal.role],
        text.operations[entry.operation],
        describeAccess(entry, text),
        entry.count,
        entry.resourceName,
        entry.callerIp,
      ]),
    ).slice(1)
  }
}

/** The readable summary in Danish: the person, their settings, every registration and note, the log. */
async function* resumeHtml(input: ExportInput, account: Account) {
  const { firebase, personId, person } = input
  const text = daExportSummary
  const name = displayName(person)
  yield `<!doctype html>\n<html lang="da">\n<head>\n<meta charset="utf-8">\n<title>${escapeHtml(text.title(name))}</title>\n`
  yield '<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.5}table{border-collapse:collapse;width:100%}th,td{border:1px solid #999;padding:.25rem .5rem;text-align:left;vertical-align:top}del{color:#555}</style>\n</head>\n<body>\n'
  yield `<h1>${escapeHtml(text.title(name))}</h1>\n<p>${escapeHtml(text.intro(formatAccessTime(input.exportedAt.toISOString()), input.exportedBy.name ?? input.exportedBy.uid))}</p>\n`
  yield `<h2>${text.details}</h2>\n<dl>\n<dt>${text.name}</dt><dd>${escapeHtml(name)}</dd>\n<dt>${text.id}</dt><dd>${escapeHtml(personId)}</dd>\n`
  yield `<dt>${text.created}</dt><dd>${escapeHtml(person.createdAt)}</dd>\n<dt>${text.email}</dt><dd>${escapeHtml(account?.email ?? text.none)}</dd>\n`
  yield `<dt>${text.signIn}</dt><dd>${account === null ? text.noAccount : account.disabled ? text.signInOff : text.signInOn}</dd>\n</dl>\n`
  yield `<h2>${text.answers}</h2>\n<ul>\n`
  for await (const docs of pages(firebase.db, personAnswersPath(personId)))
    for (const doc of docs) yield `<li>${escapeHtml(doc.get('text'))}</li>\n`
  yield `</ul>\n<h2>${text.registrations}</h2>\n<table>\n<thead><tr><th>${text.day}</th><th>${text.answer}</th><th>${text.comment}</th><th>${text.by}</th></tr></thead>\n<tbody>\n`
  for await (const docs of pages(firebase.db, registrationsPath(personId)))
    for (const doc of docs)
      yield `<tr><td>${escapeHtml(doc.get('day'))}</td><td>${escapeHtml(doc.get('text'))}</td><td>${escapeHtml(doc.get('comment') ?? '')}</td><td>${escapeHtml(doc.get('createdByName') ?? doc.get('createdBy'))}</td></tr>\n`
  yield `</tbody>\n</table>\n<h2>${text.notes}</h2>\n`
  for await (const docs of pages(firebase.db, notesPath(personId))) {
    for (const doc of docs) {
      const deleted = doc.get('deleted') as { reason?: string; byName?: string } | undefined
      yield `<article>\n<h3>${escapeHtml(doc.get('day'))} · ${escapeHtml(doc.get('authorName'))}</h3>\n<p>${escapeHtml(doc.get('text'))}</p>\n`
      const revisions = (doc.get('revisions') as { text?: string; at?: string; byName?: string }[] | undefined) ?? []
      for (const revision of revisions)
        yield `<p><del>${escapeHtml(revision.text)}</del> ${escapeHtml(text.corrected(revision.byName ?? '', revision.at ?? ''))}</p>\n`
      if (deleted) yield `<p>${escapeHtml(text.deleted(deleted.byName ?? '', deleted.reason ?? ''))}</p>\n`
      yield '</article>\n'
    }
  }
  yield `<h2>${daAccessLog.title}</h2>\n<ol>\n`
  for await (const entries of logPages(firebase, personId))
    for (const entry of entries)
      yield `<li>${escapeHtml(`${describeAccess(entry, daAccessLog)} · ${formatAccessTime(entry.timestamp)}`)}</li>\n`
  yield '</ol>\n</body>\n</html>\n'
}

/**
 * The person's data as one zip, produced while it is sent: data.json (everything stored about the
 * person), resume.html (the same, readable, in Danish), adgangslog.json and .csv, and their files.
 * Each part reads Firestore and the log a page at a time, so no size limit applies in memory.
 */
export async function exportZip(input: ExportInput): Promise<Readable> {
  const bucket = input.firebase.bucket()
  const [[objects], account] = await Promise.all([
    bucket.getFiles({ prefix: personObjectsPrefix(input.personId) }),
    accountOf(input.firebase, input.personId),
  ])
  const files = objects.map((file) => ({
    file,
    name: file.name.slice(personObjectsPrefix(input.personId).length),
    contentType: (file.metadata.contentType as string | undefined) ?? null,
  }))
  const zip = new ZipFile()
  // A failed read mid-way ends the download as failed (never as a complete-looking, partial file).
  zip.on('error', (error: Error) => (zip.outputStream as Readable).destroy(error))
  const mtime = input.exportedAt
  zip.addReadStream(Readable.from(dataJson(input, account, files)), 'data.json', { mtime })
  zip.addReadStream(Readable.from(resumeHtml(input, account)), 'resume.html', { mtime })
  zip.addReadStream(Readable.from(logJson(input.firebase, input.personId)), 'adgangslog.json', { mtime })
  zip.addReadStream(Readable.from(logCsv(input.firebase, input.personId)), 'adgangslog.csv', { mtime })
  for (const { file, name } of files) zip.addReadStream(file.createReadStream(), `filer/${name}`, { mtime })
  zip.end()
  return zip.outputStream as Readable
}
