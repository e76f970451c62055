/// <reference lib="dom" />
/**
 * A SpeechRecognition stand-in, installed before the app loads: on-device Danish as `availability`
 * says, and a short dictation (interim, then final words) when started.
 */
export function installFakeSpeech(availability: string) {
  const state = window as unknown as { dictation: Record<string, unknown>[] }
  state.dictation = []
  class FakeRecognition {
    lang = ''
    continuous = false
    interimResults = false
    processLocally = false
    onresult: ((event: unknown) => void) | null = null
    onerror: ((event: unknown) => void) | null = null
    onend: (() => void) | null = null
    static available = async () => availability
    start() {
      state.dictation.push({ lang: this.lang, processLocally: this.processLocally })
      const result = (transcript: string, isFinal: boolean) => ({ isFinal, 0: { transcript } })
      setTimeout(() => this.onresult?.({ resultIndex: 0, results: [result('Spiste morgen', false)] }), 100)
      setTimeout(
        () => this.onresult?.({ resultIndex: 0, results: [result('Spiste morgenmad med god appetit.', true)] }),
        300,
      )
    }
    stop() {
      setTimeout(() => this.onend?.(), 10)
    }
    abort() {
      this.stop()
    }
  }
  ;(window as unknown as { SpeechRecognition: unknown }).SpeechRecognition = FakeRecognition
}
