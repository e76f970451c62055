// The part of autocannon's API the benchmark uses (the package ships no types; @types/autocannon is not installed).
declare module 'autocannon' {
  type Request = {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string
    setupRequest?: (request: Request) => Request
    onResponse?: (status: number, body: string) => void
  }
  type Options = {
    url: string
    connections?: number
    duration?: number
    overallRate?: number
    requests?: Request[]
  }
  type Histogram = { average: number; mean: number; p50: number; p90: number; p99: number; max: number }
  type Result = {
    requests: Histogram & { total: number }
    latency: Histogram
    non2xx: number
    errors: number
    timeouts: number
  }
  function autocannon(options: Options): Promise<Result>
  export default autocannon
}
