import type { AccessLogEntry } from '@bosted/domain/access-log'
import { toCsv } from '@bosted/domain/csv'
import { expect, test } from 'vitest'
import { accessLogCsvRows, accessLogFileName, entryObject } from './access-log-rows.ts'

const entry = (overrides: Partial<AccessLogEntry> = {}): AccessLogEntry => ({
  seq: 7,
  timestamp: '2026-11-23T07:14:00.000Z',
  personId: 'demo-borger01',
  principal: { uid: 'demo-medarbejder', email: 'medarbejder@demo.dk', name: 'Signe Dahl', role: 'employee' },
  operation: 'list',
  resource: 'notes',
  resourceName: 'persons/demo-borger01/notes',
  count: 12,
  callerIp: '127.0.0.1',
  ...overrides,
})

test('a CSV row has the Danish time, who, the role and operation in Danish, what, how many, the path and the IP', () => {
  const [header, row] = accessLogCsvRows([entry()])
  expect(header).toEqual(['Tidspunkt', 'Navn', 'Email', 'Rolle', 'Handling', 'Data', 'Antal', 'Sti', 'IP-adresse'])
  expect(row).toEqual([
    '23.11.2026 08:14',
    'Signe Dahl',
    'medarbejder@demo.dk',
    'medarbejder',
    'Læst (liste)',
    '12 dagbogsnotater',
    12,
    'persons/demo-borger01/notes',
    '127.0.0.1',
  ])
})

test('unknown names, e-mails and addresses are empty cells, and the file is made for Danish Excel', () => {
  const unknown = entry({ principal: { uid: null, email: null, name: null, role: 'service' }, callerIp: null })
  const csv = toCsv(accessLogCsvRows([unknown]))
  expect(csv.startsWith('\uFEFF"Tidspunkt";"Navn";')).toBe(true)
  expect(csv.split('\r\n')[1]).toBe(
    '"23.11.2026 08:14";"";"";"systemet";"Læst (liste)";"12 dagbogsnotater";"12";"persons/demo-borger01/notes";""',
  )
})

test('the data column names what the sentence names, also for an opening of the log and an export', () => {
  expect(entryObject({ resource: 'notes', count: 1 })).toBe('1 dagbogsnotat')
  expect(entryObject({ resource: 'person', count: 1 })).toBe('borgerens oplysninger')
  expect(entryObject({ resource: 'accessLog', count: 1 })).toBe('adgangsloggen')
  expect(entryObject({ resource: 'export', count: 1 })).toBe('borgerens data')
})

test('the file is named after the person and the period: adgangslog-<slug>-<from>-<to>.csv', () => {
  expect(accessLogFileName('Åse Ærø-Olsen', '2026-10-25', '2026-11-23')).toBe(
    'adgangslog-åse-ærø-olsen-2026-10-25-2026-11-23.csv',
  )
})
