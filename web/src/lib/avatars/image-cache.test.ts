import { expect, test, vi } from 'vitest'
import { createImageCache } from './image-cache.ts'

const object = (id: string) => ({ bucket: 'b', path: `persons/${id}/avatar` })
const urlOf = (id: string, token = 't1') => `http://storage/v0/b/b/o/persons%2F${id}%2Favatar?alt=media&token=${token}`

function setup(size = 300) {
  let next = 0
  const download = vi.fn(async (_object: { bucket: string; path: string }) => new Blob(['png']))
  const revoked: string[] = []
  const cache = createImageCache(download, {
    size,
    createObjectUrl: () => `blob:test/${++next}`,
    revokeObjectUrl: (url) => revoked.push(url),
  })
  return { cache, download, revoked }
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0))

test('downloads an image once per download URL and hands out its object URL', async () => {
  const { cache, download } = setup()
  const listener = vi.fn()
  cache.subscribe(listener)
  cache.load(urlOf('p1'), object('p1'))
  cache.load(urlOf('p1'), object('p1'))
  expect(cache.peek(urlOf('p1'), object('p1'))).toBeNull()
  await settled()
  expect(download).toHaveBeenCalledTimes(1)
  expect(download).toHaveBeenCalledWith(object('p1'))
  expect(cache.peek(urlOf('p1'), object('p1'))).toBe('blob:test/1')
  expect(listener).toHaveBeenCalled()
  cache.load(urlOf('p1'), object('p1'))
  expect(download).toHaveBeenCalledTimes(1)
})

test('a new picture (new URL for the same object) is downloaded again and the old object URL revoked', async () => {
  const { cache, download, revoked } = setup()
  cache.load(urlOf('p1', 'old'), object('p1'))
  await settled()
  cache.load(urlOf('p1', 'new'), object('p1'))
  expect(revoked).toEqual(['blob:test/1'])
  expect(cache.peek(urlOf('p1', 'old'), object('p1'))).toBeNull()
  await settled()
  expect(download).toHaveBeenCalledTimes(2)
  expect(cache.peek(urlOf('p1', 'new'), object('p1'))).toBe('blob:test/2')
})

test('beyond its size the least recently asked for image is evicted and revoked', async () => {
  const { cache, revoked } = setup(2)
  cache.load(urlOf('p1'), object('p1'))
  cache.load(urlOf('p2'), object('p2'))
  await settled()
  cache.load(urlOf('p1'), object('p1'))
  cache.load(urlOf('p3'), object('p3'))
  await settled()
  expect(revoked).toEqual(['blob:test/2'])
  expect(cache.size).toBe(2)
  expect(cache.peek(urlOf('p1'), object('p1'))).toBe('blob:test/1')
  expect(cache.peek(urlOf('p2'), object('p2'))).toBeNull()
})

test('clearing (sign-out) revokes every object URL, and a download finishing afterwards is dropped', async () => {
  const { cache, revoked } = setup()
  cache.load(urlOf('p1'), object('p1'))
  await settled()
  cache.load(urlOf('p2'), object('p2'))
  cache.clear()
  await settled()
  expect(revoked).toEqual(['blob:test/1'])
  expect(cache.size).toBe(0)
  expect(cache.peek(urlOf('p2'), object('p2'))).toBeNull()
})

test('a failed download leaves nothing behind, so it is tried again next time', async () => {
  const { cache, download } = setup()
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  download.mockRejectedValueOnce(Object.assign(new Error('denied'), { code: 'storage/unauthorized' }))
  cache.load(urlOf('p1'), object('p1'))
  await settled()
  expect(cache.peek(urlOf('p1'), object('p1'))).toBeNull()
  expect(cache.size).toBe(0)
  expect(warn).toHaveBeenCalledWith('an image could not be loaded', 'storage/unauthorized')
  cache.load(urlOf('p1'), object('p1'))
  await settled()
  expect(cache.peek(urlOf('p1'), object('p1'))).toBe('blob:test/1')
  warn.mockRestore()
})
