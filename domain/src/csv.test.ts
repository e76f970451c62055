import { expect, test } from 'vitest'
import { csvCell, fileSlug, toCsv } from './csv.ts'

test('a CSV file for Danish Excel: BOM, semicolons, CRLF, every field quoted, decimal comma', () => {
  const csv = toCsv([
    ['Dato', 'Borger', 'Værdi'],
    ['2026-10-25', 'Ærø "Åse" Ø', 2.5],
    ['2026-10-26', null, 3],
  ])
  expect(csv).toBe('\uFEFF"Dato";"Borger";"Værdi"\r\n"2026-10-25";"Ærø ""Åse"" Ø";"2,5"\r\n"2026-10-26";"";"3"\r\n')
  expect([...new TextEncoder().encode(csv).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
})

test('text that Excel would run as a formula gets a leading quote; numbers stay numbers', () => {
  expect(['=SUM(A1)', '+45 12345678', '-tekst', '@navn', 'Godt'].map(csvCell)).toEqual([
    `"'=SUM(A1)"`,
    `"'+45 12345678"`,
    `"'-tekst"`,
    `"'@navn"`,
    '"Godt"',
  ])
  expect(csvCell(-1.5)).toBe('"-1,5"')
  expect(csvCell('a;b\r\nc')).toBe('"a;b\r\nc"')
})

test("file names carry the location's name in lower case, Danish letters kept", () => {
  expect(fileSlug('Bostedet Solsikken')).toBe('bostedet-solsikken')
  expect(fileSlug('Ærøhuset / Nord!')).toBe('ærøhuset-nord')
  expect(fileSlug('***')).toBe('lokation')
})
