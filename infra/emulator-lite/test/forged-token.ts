const HEADER = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')

/**
 * An unsigned JWT exactly as the official emulator makes it: alg none and an empty signature.
 * emulator-lite never issues one (nothing in src/ makes them); tests and benches forge them, and only
 * `acceptUnsignedTokens` (off by default) reads them.
 */
export function signUnsigned(payload: Record<string, unknown>): string {
  return `${HEADER}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.`
}
