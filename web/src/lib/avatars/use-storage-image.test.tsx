import '../../test/setup.ts'
import { act, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { clearIdentifiedImages } from './image-cache.ts'
import { PersonAvatar } from './person-avatar.tsx'

const storage = vi.hoisted(() => ({
  getBlob: vi.fn(async (_ref: { path: string }) => new Blob(['png'], { type: 'image/png' })),
  ref: vi.fn((_storage: unknown, url: string) => ({ path: url })),
}))
vi.mock('./api/storage.ts', () => ({
  getAvatarStorage: async () => ({}),
  storageLib: async () => storage,
}))

const PERSON_URL = 'http://127.0.0.1:9199/v0/b/demo.appspot.com/o/persons%2Fp1%2Favatar?alt=media&token=t1'
const STAFF_URL = 'http://127.0.0.1:9199/v0/b/demo.appspot.com/o/users%2Fu1%2Favatar?alt=media&token=t2'
const person = (avatarUrl: string | null) => ({ firstName: 'Anna', lastName: 'Berg', avatarUrl })
const imageOf = (container: HTMLElement) => container.querySelector('img')

let created = 0
beforeEach(() => {
  created = 0
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => `blob:http://localhost/${++created}`)
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {})
})

afterEach(() => {
  clearIdentifiedImages()
  vi.restoreAllMocks()
  storage.getBlob.mockClear()
  storage.ref.mockClear()
})

test("a person's picture is downloaded as the signed-in user and shown from an object URL, once per session", async () => {
  const first = render(<PersonAvatar person={person(PERSON_URL)} />)
  expect(imageOf(first.container)).toBeNull()
  expect(first.container).toHaveTextContent('AB')
  await vi.waitFor(() => expect(imageOf(first.container)).toHaveAttribute('src', 'blob:http://localhost/1'))
  expect(storage.ref).toHaveBeenCalledWith({}, 'gs://demo.appspot.com/persons/p1/avatar')
  expect(storage.getBlob).toHaveBeenCalledTimes(1)

  const second = render(<PersonAvatar person={person(PERSON_URL)} size="large" />)
  expect(imageOf(second.container)).toHaveAttribute('src', 'blob:http://localhost/1')
  expect(storage.getBlob).toHaveBeenCalledTimes(1)
  expect(document.querySelectorAll(`img[src="${PERSON_URL}"]`)).toHaveLength(0)
})

test("a staff member's picture keeps its download URL; no picture shows the initials", () => {
  const { container } = render(<PersonAvatar person={person(STAFF_URL)} />)
  expect(imageOf(container)).toHaveAttribute('src', STAFF_URL)
  const none = render(<PersonAvatar person={person(null)} />)
  expect(imageOf(none.container)).toBeNull()
  expect(none.container).toHaveTextContent('AB')
  expect(storage.getBlob).not.toHaveBeenCalled()
})

test('a picture that cannot be read shows the initials, not a broken image', async () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  storage.getBlob.mockRejectedValueOnce(Object.assign(new Error('denied'), { code: 'storage/unauthorized' }))
  const { container } = render(<PersonAvatar person={person(PERSON_URL)} />)
  await vi.waitFor(() => expect(warn).toHaveBeenCalledWith('an image could not be loaded', 'storage/unauthorized'))
  expect(imageOf(container)).toBeNull()
  expect(screen.getByText('AB')).toBeInTheDocument()
})

test('signing out forgets the pictures and revokes their object URLs', async () => {
  const { container } = render(<PersonAvatar person={person(PERSON_URL)} />)
  await vi.waitFor(() => expect(imageOf(container)).not.toBeNull())
  act(() => clearIdentifiedImages())
  expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:http://localhost/1')
  expect(imageOf(container)).toBeNull()
})
