import { expect, test } from 'vitest'
import { AvatarFileError, avatarErrorText, checkAvatar, fitWithin } from './resize-image.ts'

test('a large image is scaled so its longest side is 512 px; a small one is kept', () => {
  expect(fitWithin(2048, 1024)).toEqual({ width: 512, height: 256 })
  expect(fitWithin(600, 1200)).toEqual({ width: 256, height: 512 })
  expect(fitWithin(300, 200)).toEqual({ width: 300, height: 200 })
})

test('only images are accepted, and at most 2 MiB after resizing', () => {
  expect(() => checkAvatar({ type: 'application/pdf', size: 10 }, 'chosen')).toThrow(AvatarFileError)
  expect(() => checkAvatar({ type: 'image/png', size: 50 * 1024 * 1024 }, 'chosen')).not.toThrow()
  expect(() => checkAvatar({ type: 'image/jpeg', size: 2 * 1024 * 1024 + 1 }, 'resized')).toThrow('too-large')
})

test('a refused picture is explained in Danish', () => {
  expect(avatarErrorText(new AvatarFileError('not-image'))).toBe('Vælg en billedfil (fx JPEG eller PNG).')
  expect(avatarErrorText(new AvatarFileError('too-large'))).toBe('Billedet er for stort. Det må højst fylde 2 MB.')
})
