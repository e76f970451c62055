import { type AccessLogEntry, formatAccessTime } from '@bosted/domain/access-log'
import { type CsvCell, fileSlug } from '@bosted/domain/csv'
import { daAccessLog } from '@bosted/domain/messages/da-access-log'

const text = daAccessLog

/** What the entry is about, as the sentence names it ("12 dagbogsnotater", "adgangsloggen"). */
export function entryObject(entry: Pick<AccessLogEntry, 'resource' | 'count'>): string {
  const { resource, count } = entry
  if (resource === 'accessLog' || resource === 'export') return text.otherObjects[resource]
  return text.objects[resource](count)
}

/** The CSV's rows, header first (Tidspunkt; Navn; Email; Rolle; Handling; Data; Antal; Sti; IP-adresse). */
export function accessLogCsvRows(entries: readonly AccessLogEntry[]): CsvCell[][] {
  return [
    [...text.csvHeader],
    ...entries.map((entry) => [
      formatAccessTime(entry.timestamp),
      entry.principal.name,
      entry.principal.email,
      text.roles[entry.principal.role],
      text.operations[entry.operation],
      entryObject(entry),
      entry.count,
      entry.resourceName,
      entry.callerIp,
    ]),
  ]
}

/** "adgangslog-anna-hansen-2026-10-25-2026-11-23.csv" */
export function accessLogFileName(personName: string, from: string, to: string): string {
  return `${text.csvFileName}-${fileSlug(personName)}-${from}-${to}.csv`
}
