import { expect, test } from 'vitest'
import {
  atClock,
  formatAmount,
  formatClock,
  formatCount,
  formatFixed,
  formatNumber,
  formatTimeOfDay,
  NUMBER_MESSAGES,
  parseDanishNumber,
} from './danish-format.ts'

test('numbers are written with a thousands point and a decimal comma', () => {
  expect(formatCount(1500)).toBe('1.500')
  expect(formatCount(1234567)).toBe('1.234.567')
  expect(formatNumber(1500.5)).toBe('1.500,5')
  expect(formatNumber(2.5)).toBe('2,5')
  expect(formatNumber(-2)).toBe('-2')
  expect(formatFixed(3, 1)).toBe('3,0')
  expect(formatAmount(1500)).toBe('1.500')
  expect(formatAmount(1500.5)).toBe('1.500,50')
})

test('times are written "kl. 09.43" in Copenhagen time, also for a stored HH:MM', () => {
  // 08:43 UTC in winter is 09.43 in Copenhagen; 07:43 UTC in summer likewise.
  expect(formatClock('2026-11-25T08:43:00.000Z')).toBe('09.43')
  expect(formatClock(new Date('2026-07-01T07:43:00.000Z'))).toBe('09.43')
  expect(formatClock('2026-11-25T23:05:00.000Z')).toBe('00.05')
  expect(atClock('2026-11-25T08:43:00.000Z')).toBe('kl. 09.43')
  expect(formatTimeOfDay('20:00')).toBe('20.00')
  expect(formatTimeOfDay('7:30')).toBe('07.30')
  expect(atClock('20:00')).toBe('kl. 20.00')
  expect(atClock('09.43')).toBe('kl. 09.43')
})

test.each([
  ['1500', 1500],
  ['1500,50', 1500.5],
  ['1.500', 1500],
  ['1.500,50', 1500.5],
  ['2,5', 2.5],
  ['0,25', 0.25],
  ['-2', -2],
  ['\u22122,5', -2.5],
  ['+3', 3],
  [' 12 ', 12],
  ['1 500', 1500],
  ['1.234.567,8', 1234567.8],
  ['-0', 0],
])('"%s" is read as %d', (text, value) => {
  expect(parseDanishNumber(text)).toEqual({ ok: true, value })
})

test.each([
  '',
  ' ',
  'abc',
  '1.5',
  '2.5',
  '1.50',
  '1.5000',
  '1,500.50',
  '1500.50',
  '1,2,3',
  '1..500',
  '.5',
  ',5',
  '5,',
  '1e3',
  'Infinity',
  '--2',
  '12.34.567',
])('"%s" is refused with a Danish message', (text) => {
  expect(parseDanishNumber(text)).toEqual({ ok: false, message: NUMBER_MESSAGES.invalid })
})

test('a bound on decimals is said in Danish', () => {
  expect(parseDanishNumber('1.500,505', { maximumFractionDigits: 2 })).toEqual({
    ok: false,
    message: 'Skriv højst 2 decimaler',
  })
  expect(parseDanishNumber('2,5', { maximumFractionDigits: 0 })).toEqual({ ok: false, message: 'Skriv et helt tal' })
  expect(parseDanishNumber('1.500,50', { maximumFractionDigits: 2 })).toEqual({ ok: true, value: 1500.5 })
})
