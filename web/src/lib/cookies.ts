/** Reads a readable (non-HttpOnly) cookie; `null` when absent or empty. */
export function readCookie(name: string, cookies: string = document.cookie): string | null {
  for (const part of cookies.split(';')) {
    const [key, ...rest] = part.trim().split('=')
    if (key === name) {
      const value = decodeURIComponent(rest.join('='))
      return value === '' ? null : value
    }
  }
  return null
}

/** Expires a readable cookie on this path (the server clears the HttpOnly one). */
export function clearCookie(name: string): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the one place the web drops its presence marker
  document.cookie = `${name}=; Max-Age=0; path=/; SameSite=Lax`
}

/**
 * The readable cookie the api sets beside the HttpOnly `session` cookie (equal to the domain's
 * USER_ID_COOKIE, which lives beside zod schemas this bundle must not load; a test keeps them equal).
 */
export const USER_ID_COOKIE = 'userId'
