import type { Subscription } from '@bosted/domain/location'
import type { SubscriptionChange } from '@bosted/domain/subscription'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { type CareEmulator, location, staff, startCareEmulator } from '../../../test/care-emulator.ts'
import { current } from '../../../test/use-db.ts'
import { getLocation } from './get-location.ts'
import { updateLocation } from './update-location.ts'

vi.mock('../../../lib/firestore.ts', async () => (await import('../../../test/use-db.ts')).firestoreModule)

let emulator: CareEmulator
let clients: Record<'anna' | 'bo', Awaited<ReturnType<CareEmulator['signIn']>>>
beforeAll(async () => {
  emulator = await startCareEmulator({
    'users/anna': staff('anna', [], 'admin'),
    'users/bo': staff('bo', [], 'admin'),
    'locations/S1': location('S1', []),
    'locations/S2': location('S2', []),
  })
  clients = {
    anna: await emulator.signIn('anna', { admin: true, userRole: 'admin' }),
    bo: await emulator.signIn('bo', { admin: true, userRole: 'admin' }),
  }
})
afterAll(async () => {
  await emulator?.close()
})

/** What the subscription page saves: the new subscription, and the change from what the admin saw. */
function save(admin: 'anna' | 'bo', locationId: string, seen: Subscription | null, amount: number) {
  const subscription = {
    amount,
    createdAt: '2026-11-01T00:00:00.000Z',
    validUntil: `2027-0${amount % 9 || 1}-01T00:00:00.000Z`,
  }
  const change: SubscriptionChange = {
    at: new Date().toISOString(),
    by: admin,
    byName: admin,
    from: seen === null ? null : { amount: seen.amount, validUntil: seen.validUntil },
    to: { amount: subscription.amount, validUntil: subscription.validUntil },
  }
  current.db = clients[admin]
  return updateLocation(locationId, { kind: 'subscription', subscription, change })
}

async function stored(locationId: string) {
  current.db = clients.anna
  const found = await getLocation(locationId)
  if (found === null) throw new Error('no location')
  return found.settings
}

test('an admin saving from a subscription another admin has since changed is refused, and nothing is overwritten', async () => {
  const seen = (await stored('S1')).subscription
  await save('anna', 'S1', seen, 100)
  // Bo still has the page from before Anna's save.
  await expect(save('bo', 'S1', seen, 200)).rejects.toMatchObject({ name: 'ConcurrentEditError' })
  const after = await stored('S1')
  expect(after.subscription?.amount).toBe(100)
  expect(after.subscriptionHistory).toHaveLength(1)

  // Having seen the current value, Bo saves again: the history chains.
  await save('bo', 'S1', after.subscription, 200)
  const history = (await stored('S1')).subscriptionHistory as SubscriptionChange[]
  expect(history.map((entry) => entry.to.amount)).toEqual([100, 200])
  expect(history[0]?.from).toBeNull()
  expect(history[1]?.from).toEqual(history[0]?.to)
})

test('two admins saving at the same moment: exactly one is stored, the other is told, the history chains', async () => {
  const seen = (await stored('S2')).subscription
  const outcomes = await Promise.allSettled([save('anna', 'S2', seen, 300), save('bo', 'S2', seen, 400)])
  expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1)
  const refused = outcomes.find((outcome) => outcome.status === 'rejected')
  expect((refused as PromiseRejectedResult).reason).toMatchObject({ name: 'ConcurrentEditError' })
  const winner = outcomes[0]?.status === 'fulfilled' ? 300 : 400
  const after = await stored('S2')
  expect(after.subscription?.amount).toBe(winner)
  expect((after.subscriptionHistory as SubscriptionChange[]).map((entry) => entry.to.amount)).toEqual([winner])
})
