import '../test/setup.ts'
import { act, render, screen } from '@testing-library/react'
import { expect, test, vi } from 'vitest'
import { onDemandCode, useOnDemandCode } from './on-demand-code.ts'

const offline = () => new TypeError('Failed to fetch dynamically imported module: /assets/register-dialog-x.js')
const module = { name: 'the form' }

function Shows({
  code,
  isWanted = true,
}: {
  code: ReturnType<typeof onDemandCode<typeof module>>
  isWanted?: boolean
}) {
  const state = useOnDemandCode(code, isWanted)
  if (state.loaded !== undefined) return <p>{state.loaded.name}</p>
  return (
    <p>
      {state.failed ? 'failed' : 'waiting'}
      <button type="button" onClick={state.retry}>
        retry
      </button>
    </p>
  )
}

test('the code is fetched once, however many ask for it, and kept', async () => {
  const fetchCode = vi.fn(async () => module)
  const code = onDemandCode(fetchCode)
  expect(code.loaded).toBeUndefined()
  const [first, second] = await Promise.all([code.load(), code.load()])
  expect(first).toBe(module)
  expect(second).toBe(module)
  await code.load()
  expect(fetchCode).toHaveBeenCalledTimes(1)
  expect(code.loaded).toBe(module)
})

test('a fetch that failed is tried again by the next load', async () => {
  const fetchCode = vi.fn().mockRejectedValueOnce(offline()).mockResolvedValueOnce(module)
  const code = onDemandCode(fetchCode)
  await expect(code.load()).rejects.toThrow(/dynamically imported module/)
  expect(code.loaded).toBeUndefined()
  await expect(code.load()).resolves.toBe(module)
  expect(fetchCode).toHaveBeenCalledTimes(2)
})

test('nothing is fetched until the code is wanted, and code already here shows at once', async () => {
  const fetchCode = vi.fn(async () => module)
  const code = onDemandCode(fetchCode)
  const { rerender } = render(<Shows code={code} isWanted={false} />)
  expect(fetchCode).not.toHaveBeenCalled()
  rerender(<Shows code={code} />)
  expect(await screen.findByText('the form')).toBeInTheDocument()

  // Another owner of the same code (the next page) shows it in its first render.
  render(<Shows code={code} />)
  expect(screen.getAllByText('the form')).toHaveLength(2)
  expect(fetchCode).toHaveBeenCalledTimes(1)
})

test('a failed fetch is said, and tried again when the browser is online again', async () => {
  const fetchCode = vi.fn().mockRejectedValueOnce(offline()).mockResolvedValueOnce(module)
  render(<Shows code={onDemandCode(fetchCode)} />)
  expect(await screen.findByText('failed')).toBeInTheDocument()
  expect(fetchCode).toHaveBeenCalledTimes(1)
  await act(async () => {
    window.dispatchEvent(new Event('online'))
  })
  expect(await screen.findByText('the form')).toBeInTheDocument()
  expect(fetchCode).toHaveBeenCalledTimes(2)
})

test('retry fetches again; a failure again keeps it failed, and the online event is no longer heard once loaded', async () => {
  const fetchCode = vi.fn().mockRejectedValueOnce(offline()).mockRejectedValueOnce(offline()).mockResolvedValue(module)
  render(<Shows code={onDemandCode(fetchCode)} />)
  expect(await screen.findByText('failed')).toBeInTheDocument()
  await act(async () => screen.getByRole('button', { name: 'retry' }).click())
  expect(fetchCode).toHaveBeenCalledTimes(2)
  expect(screen.getByText('failed')).toBeInTheDocument()
  await act(async () => screen.getByRole('button', { name: 'retry' }).click())
  expect(await screen.findByText('the form')).toBeInTheDocument()
  await act(async () => {
    window.dispatchEvent(new Event('online'))
  })
  expect(fetchCode).toHaveBeenCalledTimes(3)
})
