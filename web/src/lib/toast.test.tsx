import '../test/setup.ts'
import { act, render, screen } from '@testing-library/react'
import { toast } from 'sonner'
import { afterEach, expect, test } from 'vitest'
import { Toaster } from '../components/ui/toaster.tsx'
import { toastPromise } from './toast.ts'

afterEach(() => {
  // sonner keeps its toasts in a module-wide store and replays active ones to a new Toaster.
  act(() => {
    toast.dismiss()
  })
})

const messages = {
  pending: 'Opdaterer borger',
  resolved: 'Borgeren blev opdateret korrekt',
  rejected: 'Der skete en fejl med at opdatere borgeren',
}

function deferred<T>() {
  let resolve: (value: T) => void = () => {}
  let reject: (error: unknown) => void = () => {}
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

const toasts = () => document.querySelectorAll<HTMLElement>('[data-sonner-toast]')

/** Renders the toaster, starts a promise toast on work not yet done and waits for its pending text. */
async function startPromiseToast() {
  render(<Toaster />)
  const work = deferred<string>()
  let result: Promise<string> = Promise.resolve('')
  act(() => {
    result = toastPromise(work.promise, messages)
  })
  expect(await screen.findByText('Opdaterer borger')).toBeInTheDocument()
  return { work, result }
}

test('a promise toast shows the pending text, then the resolved text in its place', async () => {
  const { work, result } = await startPromiseToast()
  expect(toasts()).toHaveLength(1)
  expect(toasts()[0]).toHaveAttribute('data-type', 'loading')

  await act(async () => {
    work.resolve('p1')
    await result
  })
  expect(await screen.findByText('Borgeren blev opdateret korrekt')).toBeInTheDocument()
  expect(screen.queryByText('Opdaterer borger')).toBeNull()
  expect(toasts()).toHaveLength(1)
  expect(toasts()[0]).toHaveAttribute('data-type', 'success')
})

test('a promise toast shows the rejected text in place of the pending text when the promise fails', async () => {
  const { work, result } = await startPromiseToast()

  await act(async () => {
    work.reject(new Error('permission-denied'))
    await result.catch(() => {})
  })
  expect(await screen.findByText('Der skete en fejl med at opdatere borgeren')).toBeInTheDocument()
  expect(screen.queryByText('Opdaterer borger')).toBeNull()
  expect(toasts()).toHaveLength(1)
  expect(toasts()[0]).toHaveAttribute('data-type', 'error')
})

test('the resolved and rejected texts may be built from the outcome', async () => {
  render(<Toaster />)
  act(() => {
    void toastPromise(Promise.resolve('Anna'), { ...messages, resolved: (name) => `${name} blev opdateret` })
  })
  expect(await screen.findByText('Anna blev opdateret')).toBeInTheDocument()
  act(() => {
    void toastPromise(Promise.reject(new Error('offline')), {
      ...messages,
      rejected: (error) => `Fejl: ${(error as Error).message}`,
    }).catch(() => {})
  })
  expect(await screen.findByText('Fejl: offline')).toBeInTheDocument()
})

test('toastPromise hands back the original promise: the caller still gets its value or its rejection', async () => {
  const value = Promise.resolve({ id: 'p1' })
  expect(toastPromise(value, messages)).toBe(value)
  await expect(toastPromise(value, messages)).resolves.toEqual({ id: 'p1' })
  const failure = new Error('permission-denied')
  await expect(toastPromise(Promise.reject(failure), messages)).rejects.toBe(failure)
})

test('a save the backend refused for lack of space says so in Danish, whatever was being saved', async () => {
  render(<Toaster />)
  act(() => {
    void toastPromise(
      Promise.reject(Object.assign(new Error('disk full'), { code: 'resource-exhausted' })),
      messages,
    ).catch(() => {})
  })
  expect(
    await screen.findByText(
      'Intet kan gemmes lige nu: serveren har ikke mere plads. Det, du skriver, bliver ikke gemt. Sig det til jeres it-ansvarlige.',
    ),
  ).toBeInTheDocument()
})
