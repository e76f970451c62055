import type { Answer } from '@bosted/domain/answer'
import { expect, test } from 'vitest'
import { orderAnswerOptions } from './answer-options.ts'

const option = (id: string, value: number, entity: Answer['entity'], hidden = false): Answer => ({
  id,
  text: `Svar ${id}`,
  value,
  hidden,
  entity,
  createdAt: '2026-01-01T00:00:00.000Z',
})

const own = [option('p1', 1, 'person'), option('p2', 5, 'person'), option('p3', 3, 'person', true)]
const place = [option('l1', 2, 'location'), option('l2', 4, 'location', true), option('l3', 1, 'location')]

test("the person's own options come first, then the location's, each in its settings order", () => {
  const options = orderAnswerOptions({
    own,
    ownOrder: ['p2', 'p1', 'p3'],
    place,
    placeOrder: ['l3', 'l2', 'l1'],
    includePlaceAnswers: true,
  })
  expect(options.map((answer) => answer.id)).toEqual(['p2', 'p1', 'l3', 'l1'])
})

test("hidden options are left out, and the location's only with includePlaceAnswers", () => {
  const options = orderAnswerOptions({ own, ownOrder: [], place, placeOrder: [], includePlaceAnswers: false })
  expect(options.map((answer) => answer.id)).toEqual(['p2', 'p1'])
})

test('options missing from the order follow the listed ones, highest value first', () => {
  const options = orderAnswerOptions({
    own,
    ownOrder: ['p1'],
    place,
    placeOrder: [],
    includePlaceAnswers: true,
  })
  expect(options.map((answer) => answer.id)).toEqual(['p1', 'p2', 'l1', 'l3'])
})
