/**
 * Where the browser downloads a person's export (a zip; admins only). A plain link, not a fetch:
 * the browser streams the file to disk with the session cookie, so no copy of it sits in memory,
 * and the api's Content-Disposition names the file.
 */
export function personExportUrl(personId: string): string {
  return `/api/person/${encodeURIComponent(personId)}/export`
}
