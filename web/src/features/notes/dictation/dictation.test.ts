import { afterEach, expect, test, vi } from 'vitest'
import {
  type DictationHandlers,
  dictationError,
  insertAt,
  type RecognitionConstructor,
  webSpeechEngine,
} from './dictation.ts'

type Result = { isFinal: boolean; 0: { transcript: string } }

/** A stand-in for the browser's SpeechRecognition that a test drives by hand. */
function fakeRecognition(available?: (options: { langs: string[]; processLocally: boolean }) => Promise<string>) {
  const instances: FakeRecognition[] = []
  class FakeRecognition {
    lang = ''
    continuous = false
    interimResults = false
    processLocally?: boolean
    onresult: ((event: { resultIndex: number; results: Result[] }) => void) | null = null
    onerror: ((event: { error: string }) => void) | null = null
    onend: (() => void) | null = null
    isStarted = false
    constructor() {
      instances.push(this)
    }
    start() {
      this.isStarted = true
    }
    stop() {
      this.isStarted = false
      this.onend?.()
    }
    abort() {
      this.stop()
    }
    hear(results: [string, boolean][], resultIndex = 0) {
      this.onresult?.({
        resultIndex,
        results: results.map(([transcript, isFinal]) => ({ isFinal, 0: { transcript } })),
      })
    }
  }
  const Recognition = FakeRecognition as unknown as RecognitionConstructor
  if (available) Recognition.available = available
  return { Recognition, instances }
}

const handlers = () => {
  const calls = { interim: [] as string[], final: [] as string[], errors: [] as string[], ended: 0 }
  const value: DictationHandlers = {
    onInterim: (text) => calls.interim.push(text),
    onFinal: (text) => calls.final.push(text),
    onError: (error) => calls.errors.push(error),
    onEnd: () => {
      calls.ended += 1
    },
  }
  return { calls, value }
}

afterEach(() => vi.useRealTimers())

test('a browser without the Web Speech API has no dictation', async () => {
  expect(await webSpeechEngine({ cloudAllowed: true, scope: {} }).availability()).toEqual({
    mode: 'unavailable',
    reason: 'unsupported',
  })
})

test('on-device recognition is used where the browser has Danish locally, whatever the location allows', async () => {
  const asked: unknown[] = []
  const { Recognition } = fakeRecognition(async (options) => {
    asked.push(options)
    return 'available'
  })
  const engine = webSpeechEngine({ cloudAllowed: false, scope: { SpeechRecognition: Recognition } })
  expect(await engine.availability()).toEqual({ mode: 'on-device' })
  expect(asked).toEqual([{ langs: ['da-DK'], processLocally: true }])
})

test('without on-device Danish the cloud service is used only where an admin allowed it', async () => {
  for (const answer of ['unavailable', 'downloadable', 'downloading']) {
    const { Recognition } = fakeRecognition(async () => answer)
    const scope = { webkitSpeechRecognition: Recognition }
    expect(await webSpeechEngine({ cloudAllowed: true, scope }).availability()).toEqual({ mode: 'cloud' })
    expect(await webSpeechEngine({ cloudAllowed: false, scope }).availability()).toEqual({
      mode: 'unavailable',
      reason: 'cloud-not-allowed',
    })
  }
  // A browser that cannot say (no available(), or a policy blocks it) is treated as cloud-only.
  const older = fakeRecognition()
  expect(
    await webSpeechEngine({ cloudAllowed: false, scope: { SpeechRecognition: older.Recognition } }).availability(),
  ).toEqual({ mode: 'unavailable', reason: 'cloud-not-allowed' })
  const blocked = fakeRecognition(() => Promise.reject(new Error('blocked by policy')))
  expect(
    await webSpeechEngine({ cloudAllowed: true, scope: { SpeechRecognition: blocked.Recognition } }).availability(),
  ).toEqual({ mode: 'cloud' })
})

test('dictation listens in Danish, on the device when it may, and hands on interim and final words', () => {
  const { Recognition, instances } = fakeRecognition(async () => 'available')
  const engine = webSpeechEngine({ cloudAllowed: false, scope: { SpeechRecognition: Recognition } })
  const { calls, value } = handlers()
  const session = engine.start('on-device', value)
  const recognition = instances[0] as (typeof instances)[number]
  expect(recognition).toMatchObject({
    lang: 'da-DK',
    continuous: true,
    interimResults: true,
    processLocally: true,
    isStarted: true,
  })
  recognition.hear([['God mor', false]])
  recognition.hear([
    ['God morgen', true],
    [' Lene', false],
  ])
  expect(calls.interim).toEqual(['God mor', ' Lene'])
  expect(calls.final).toEqual(['God morgen'])
  session.stop()
  expect(calls.ended).toBe(1)
  expect(calls.interim.at(-1)).toBe('')
})

test('the cloud service is never started where the location does not allow it', () => {
  const { Recognition, instances } = fakeRecognition()
  const scope = { SpeechRecognition: Recognition }
  expect(() => webSpeechEngine({ cloudAllowed: false, scope }).start('cloud', handlers().value)).toThrow()
  expect(instances).toHaveLength(0)
  webSpeechEngine({ cloudAllowed: true, scope }).start('cloud', handlers().value)
  expect(instances[0]?.processLocally).toBeUndefined()
})

test('dictation stops by itself after 8 seconds without speech', () => {
  vi.useFakeTimers()
  const { Recognition, instances } = fakeRecognition()
  const { calls, value } = handlers()
  webSpeechEngine({ cloudAllowed: true, scope: { SpeechRecognition: Recognition } }).start('cloud', value)
  vi.advanceTimersByTime(5000)
  instances[0]?.hear([['hej', true]])
  vi.advanceTimersByTime(7999)
  expect(calls.ended).toBe(0)
  vi.advanceTimersByTime(1)
  expect(calls.ended).toBe(1)
})

test('every error of the Web Speech API becomes one of the editor’s messages; an abort is none', () => {
  expect(
    [
      'not-allowed',
      'service-not-allowed',
      'audio-capture',
      'no-speech',
      'network',
      'language-not-supported',
      'bad-grammar',
      'aborted',
    ].map(dictationError),
  ).toEqual(['permission', 'permission', 'no-microphone', 'no-speech', 'network', 'language', 'failed', null])
  const { Recognition, instances } = fakeRecognition()
  const { calls, value } = handlers()
  webSpeechEngine({ cloudAllowed: true, scope: { SpeechRecognition: Recognition } }).start('cloud', value)
  instances[0]?.onerror?.({ error: 'not-allowed' })
  instances[0]?.onerror?.({ error: 'aborted' })
  expect(calls.errors).toEqual(['permission'])
})

test('dictated words go in at the cursor with the spaces they need', () => {
  expect(insertAt('', 0, ' Godt humør ')).toEqual({ text: 'Godt humør', cursor: 10 })
  expect(insertAt('Sov godt.', 9, 'Spiste morgenmad.')).toEqual({ text: 'Sov godt. Spiste morgenmad.', cursor: 27 })
  expect(insertAt('Sov godt.', 0, 'I nat')).toEqual({ text: 'I nat Sov godt.', cursor: 5 })
  expect(insertAt('Sov  godt.', 4, 'meget')).toEqual({ text: 'Sov meget godt.', cursor: 9 })
  expect(insertAt('Sov', 3, '   ')).toEqual({ text: 'Sov', cursor: 3 })
})
