/**
 * Dictation behind one small interface, so the editor never touches a speech API: the browser's Web
 * Speech API today, an on-premise speech service later (implement DictationEngine and pass it in).
 */

export const DICTATION_LANGUAGE = 'da-DK'
/** Dictation stops by itself after this long without any recognised speech. */
export const DICTATION_SILENCE_MS = 8000

/**
 * Where dictation may run: on the device (no audio leaves it), in the browser maker's cloud (only
 * where an admin allowed it for the location), or not at all, and why.
 */
export type DictationAvailability =
  | { mode: 'on-device' }
  | { mode: 'cloud' }
  | { mode: 'unavailable'; reason: 'unsupported' | 'cloud-not-allowed' | 'turned-off' }

export type DictationError = 'permission' | 'no-microphone' | 'no-speech' | 'network' | 'language' | 'failed'

export type DictationHandlers = {
  /** The words heard so far that may still change. */
  onInterim: (text: string) => void
  /** Words that are final: inserted into the text. */
  onFinal: (text: string) => void
  onError: (error: DictationError) => void
  /** Dictation has stopped (by stop(), silence, an error or the engine). */
  onEnd: () => void
}

export type DictationSession = { stop: () => void }

export interface DictationEngine {
  availability(): Promise<DictationAvailability>
  start(mode: 'on-device' | 'cloud', handlers: DictationHandlers): DictationSession
}

/** The engine where an admin turned dictation off for the location: never available. */
export const disabledDictation: DictationEngine = {
  availability: async () => ({ mode: 'unavailable', reason: 'turned-off' }),
  start: () => {
    throw new Error('dictation is turned off for this location')
  },
}

// The parts of the Web Speech API used here (not in TypeScript's DOM library yet).
type RecognitionResult = { isFinal: boolean; 0: { transcript: string } }
type RecognitionEvent = { resultIndex: number; results: ArrayLike<RecognitionResult> }
type Recognition = {
  lang: string
  continuous: boolean
  interimResults: boolean
  processLocally?: boolean
  onresult: ((event: RecognitionEvent) => void) | null
  onerror: ((event: { error: string }) => void) | null
  onend: (() => void) | null
  start(): void
  stop(): void
  abort(): void
}
export type RecognitionConstructor = {
  new (): Recognition
  available?: (options: { langs: string[]; processLocally: boolean }) => Promise<string>
}
type SpeechWindow = { SpeechRecognition?: RecognitionConstructor; webkitSpeechRecognition?: RecognitionConstructor }

/** The browser's SpeechRecognition (or webkitSpeechRecognition), or null where there is none. */
export function recognitionConstructor(scope: unknown = globalThis): RecognitionConstructor | null {
  const speech = scope as SpeechWindow
  return speech.SpeechRecognition ?? speech.webkitSpeechRecognition ?? null
}

/** The Web Speech API's error names as the editor's messages know them. */
export function dictationError(name: string): DictationError | null {
  switch (name) {
    case 'aborted':
      return null
    case 'not-allowed':
    case 'service-not-allowed':
      return 'permission'
    case 'audio-capture':
      return 'no-microphone'
    case 'no-speech':
      return 'no-speech'
    case 'network':
      return 'network'
    case 'language-not-supported':
      return 'language'
    default:
      return 'failed'
  }
}

type WebSpeechOptions = {
  /** Whether an admin allowed the browser maker's cloud service for the location. */
  cloudAllowed: boolean
  scope?: unknown
  silenceMs?: number
}

/**
 * Dictation with the Web Speech API. On-device recognition is preferred: used where the browser says
 * Danish is available locally (`SpeechRecognition.available({langs, processLocally: true})`), with
 * `processLocally` set so the audio cannot leave the device. Otherwise the browser's recognition
 * (which sends audio to its maker's service) is offered only where the location allows it.
 */
export function webSpeechEngine({
  cloudAllowed,
  scope,
  silenceMs = DICTATION_SILENCE_MS,
}: WebSpeechOptions): DictationEngine {
  return {
    async availability() {
      const Recognition = recognitionConstructor(scope)
      if (Recognition === null) return { mode: 'unavailable', reason: 'unsupported' }
      if (typeof Recognition.available === 'function') {
        try {
          const local = await Recognition.available({ langs: [DICTATION_LANGUAGE], processLocally: true })
          if (local === 'available') return { mode: 'on-device' }
        } catch {
          // A policy may block the check: then on-device recognition is not known to be there.
        }
      }
      return cloudAllowed ? { mode: 'cloud' } : { mode: 'unavailable', reason: 'cloud-not-allowed' }
    },

    start(mode, handlers) {
      const Recognition = recognitionConstructor(scope)
      if (Recognition === null) throw new Error('no speech recognition in this browser')
      if (mode === 'cloud' && !cloudAllowed) throw new Error('cloud dictation is not allowed here')
      const recognition = new Recognition()
      recognition.lang = DICTATION_LANGUAGE
      recognition.continuous = true
      recognition.interimResults = true
      if (mode === 'on-device') recognition.processLocally = true
      let silence: ReturnType<typeof setTimeout> | undefined
      const quietFor = () => {
        clearTimeout(silence)
        silence = setTimeout(() => recognition.stop(), silenceMs)
      }
      recognition.onresult = (event) => {
        quietFor()
        let interim = ''
        for (let index = event.resultIndex; index < event.results.length; index++) {
          const result = event.results[index] as RecognitionResult
          if (result.isFinal) handlers.onFinal(result[0].transcript)
          else interim += result[0].transcript
        }
        handlers.onInterim(interim)
      }
      recognition.onerror = (event) => {
        const error = dictationError(event.error)
        if (error !== null) handlers.onError(error)
      }
      recognition.onend = () => {
        clearTimeout(silence)
        handlers.onInterim('')
        handlers.onEnd()
      }
      recognition.start()
      quietFor()
      return {
        stop: () => {
          clearTimeout(silence)
          recognition.stop()
        },
      }
    },
  }
}

/** Inserts dictated words at the cursor, with a space between them and the text around them. */
export function insertAt(text: string, cursor: number, words: string): { text: string; cursor: number } {
  const spoken = words.trim()
  if (spoken === '') return { text, cursor }
  const before = text.slice(0, cursor)
  const after = text.slice(cursor)
  const lead = before === '' || /\s$/.test(before) ? '' : ' '
  const trail = after === '' || /^\s/.test(after) ? '' : ' '
  const inserted = `${lead}${spoken}${trail}`
  return { text: `${before}${inserted}${after}`, cursor: before.length + lead.length + spoken.length }
}
