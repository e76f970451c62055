import '../../../test/setup.ts'
import { fireEvent, render, screen } from '@testing-library/react'
import { expect, test, vi } from 'vitest'
import type { DictationAvailability, DictationError } from './dictation.ts'
import { cloudNoticeKey, DictationButton } from './dictation-button.tsx'
import type { Dictation } from './use-dictation.ts'

const dictation = (availability: DictationAvailability | null, more: Partial<Dictation> = {}): Dictation => ({
  availability,
  isListening: false,
  interim: '',
  error: null,
  start: vi.fn(),
  stop: vi.fn(),
  ...more,
})

test('before the first cloud dictation at a location a notice says where the audio goes; after it, none', () => {
  const cloud = dictation({ mode: 'cloud' })
  const { rerender } = render(<DictationButton dictation={cloud} locationId="L1" hintId="h" />)
  fireEvent.click(screen.getByRole('button', { name: /Diktér/ }))
  const notice = screen.getByRole('dialog', { name: 'Diktat via browserens talegenkendelse' })
  expect(notice).toHaveTextContent(/lyden til browserproducentens talegenkendelsestjeneste \(for Chrome: Google\)/)
  expect(cloud.start).not.toHaveBeenCalled()
  fireEvent.click(screen.getByRole('button', { name: 'Fortsæt med diktat' }))
  expect(cloud.start).toHaveBeenCalledTimes(1)
  expect(localStorage.getItem(cloudNoticeKey('L1'))).not.toBeNull()

  rerender(<DictationButton dictation={cloud} locationId="L1" hintId="h" />)
  fireEvent.click(screen.getByRole('button', { name: /Diktér/ }))
  expect(cloud.start).toHaveBeenCalledTimes(2)
  // Another location asks again.
  rerender(<DictationButton dictation={cloud} locationId="L2" hintId="h" />)
  fireEvent.click(screen.getByRole('button', { name: /Diktér/ }))
  expect(cloud.start).toHaveBeenCalledTimes(2)
})

test('on-device dictation starts at once and says the audio stays on the device', () => {
  const local = dictation({ mode: 'on-device' })
  render(<DictationButton dictation={local} locationId="L1" hintId="h" />)
  expect(screen.getByText('Tale genkendes på enheden og sendes ingen steder hen.')).toBeInTheDocument()
  fireEvent.click(screen.getByRole('button', { name: /Diktér/ }))
  expect(local.start).toHaveBeenCalledTimes(1)
})

test('while listening the button stops, and the words heard so far are shown', () => {
  const listening = dictation({ mode: 'on-device' }, { isListening: true, interim: 'Spiste morgen' })
  render(<DictationButton dictation={listening} locationId="L1" hintId="h" />)
  const button = screen.getByRole('button', { name: /Stop diktat/ })
  expect(button).toHaveAttribute('aria-pressed', 'true')
  expect(screen.getByText('Spiste morgen')).toBeInTheDocument()
  fireEvent.click(button)
  expect(listening.stop).toHaveBeenCalledTimes(1)
})

test('where dictation cannot run the editor says why, and offers no button', () => {
  const { rerender } = render(
    <DictationButton
      dictation={dictation({ mode: 'unavailable', reason: 'unsupported' })}
      locationId="L1"
      hintId="h"
    />,
  )
  expect(screen.getByText(/^Diktat virker ikke i denne browser/)).toBeInTheDocument()
  expect(screen.queryByRole('button')).toBeNull()
  rerender(
    <DictationButton
      dictation={dictation({ mode: 'unavailable', reason: 'cloud-not-allowed' })}
      locationId="L1"
      hintId="h"
    />,
  )
  expect(screen.getByText(/^Diktat er ikke slået til for denne lokation/)).toBeInTheDocument()
})

test('every failure is told in Danish', () => {
  const messages: Record<DictationError, RegExp> = {
    permission: /^Browseren fik ikke lov at bruge mikrofonen/,
    'no-microphone': /^Der blev ikke fundet nogen mikrofon/,
    'no-speech': /^Der blev ikke hørt nogen tale/,
    network: /^Talegenkendelsen kunne ikke nås/,
    language: /^Talegenkendelsen understøtter ikke dansk/,
    failed: /^Diktatet stoppede med en fejl/,
  }
  for (const [error, message] of Object.entries(messages)) {
    const { unmount } = render(
      <DictationButton
        dictation={dictation({ mode: 'on-device' }, { error: error as DictationError })}
        locationId="L1"
        hintId="h"
      />,
    )
    expect(screen.getByRole('alert')).toHaveTextContent(message)
    unmount()
  }
})
