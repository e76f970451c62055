import type { Answer } from '@bosted/domain/answer'
import { expect, test } from 'vitest'
import { move, sortByOrder } from './answer-order.ts'

const option = (id: string, value: number): Answer => ({
  id,
  text: id,
  value,
  hidden: false,
  entity: 'location',
  createdAt: '2026-01-01T00:00:00.000Z',
})

test('options follow the stored order; unlisted ones come last, highest value first', () => {
  const options = [option('a', 1), option('b', 5), option('c', 3), option('d', 4)]
  expect(sortByOrder(options, ['c', 'a']).map((answer) => answer.id)).toEqual(['c', 'a', 'b', 'd'])
})

test('moving an option up or down keeps the others in their order', () => {
  expect(move(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b'])
  expect(move(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c'])
  expect(move(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c'])
  expect(move(['a', 'b', 'c'], 2, 5)).toEqual(['a', 'b', 'c'])
})
