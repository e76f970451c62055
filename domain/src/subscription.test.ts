import { expect, test } from 'vitest'
import { SubscriptionFormSchema, subscriptionFromForm, subscriptionLabel, subscriptionStatus } from './subscription.ts'

const NOW = new Date('2026-11-24T10:00:00Z')
const until = (validUntil: string) => ({ amount: 1000, createdAt: '2026-01-01T00:00:00.000Z', validUntil })
const label = (validUntil: string | null, now = NOW) =>
  subscriptionLabel(subscriptionStatus(validUntil === null ? null : until(validUntil), now))

test('a subscription reads as the spec’s four statuses, by the Copenhagen day', () => {
  expect(label(null)).toBe('Intet abonnement')
  expect(label('2026-12-31T12:00:00.000Z')).toBe('Aktiv til 31.12.2026')
  expect(label('2026-12-06T12:00:00.000Z')).toBe('Udløber om 12 dage')
  expect(label('2026-11-25T12:00:00.000Z')).toBe('Udløber om 1 dag')
  expect(label('2026-11-24T12:00:00.000Z')).toBe('Udløber om 0 dage')
  expect(label('2026-10-01T12:00:00.000Z')).toBe('Udløbet 01.10.2026')
  // 23:30 UTC on 23 November is already the 24th in Copenhagen: valid through the 23rd, so expired.
  expect(label('2026-11-23T12:00:00.000Z', new Date('2026-11-23T23:30:00Z'))).toBe('Udløbet 23.11.2026')
})

test('expiring means at most 30 days left; 31 is still active', () => {
  expect(subscriptionStatus(until('2026-12-24T12:00:00.000Z'), NOW)).toEqual({
    kind: 'expiring',
    validUntil: '2026-12-24',
    daysLeft: 30,
  })
  expect(subscriptionStatus(until('2026-12-25T12:00:00.000Z'), NOW).kind).toBe('active')
})

test('the form takes kroner from 0 typed the Danish way and an end day not before the start, with every message at once', () => {
  const ok = SubscriptionFormSchema.parse({ amount: '12000', createdAt: '2026-11-24', validUntil: '2026-11-24' })
  expect(ok).toEqual({ amount: 12000, createdAt: '2026-11-24', validUntil: '2026-11-24' })
  expect(subscriptionFromForm(ok)).toEqual({
    amount: 12000,
    createdAt: '2026-11-24T00:00:00.000Z',
    validUntil: '2026-11-24T12:00:00.000Z',
  })
  const messages = (input: Record<string, string>) =>
    SubscriptionFormSchema.safeParse(input).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)
  const amount = (text: string) =>
    SubscriptionFormSchema.parse({ amount: text, createdAt: '2026-11-24', validUntil: '2026-11-24' }).amount
  expect(amount('1500,50')).toBe(1500.5)
  expect(amount('1.500')).toBe(1500)
  expect(amount('1.500,50')).toBe(1500.5)
  expect(messages({ amount: '12.5', createdAt: '2026-11-24', validUntil: '2026-11-23' })).toEqual([
    'amount: Beløbet skal være et tal, fx 1.500 eller 1.500,50',
    'validUntil: Slutdatoen kan ikke ligge før startdatoen',
  ])
  expect(messages({ amount: '12,505', createdAt: '2026-11-24', validUntil: '2026-12-01' })).toEqual([
    'amount: Skriv højst 2 decimaler',
  ])
  expect(messages({ amount: ' ', createdAt: '2026-11-24', validUntil: '2026-12-01' })).toEqual([
    'amount: Beløbet skal være et tal, fx 1.500 eller 1.500,50',
  ])
  expect(messages({ amount: '-1', createdAt: '2026-11-24', validUntil: '' })).toEqual([
    'amount: Beløbet kan ikke være negativt',
    'validUntil: Vælg en dato',
  ])
})
