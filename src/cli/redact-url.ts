/**
 * `url` with its password replaced by `***`, for a line an operator reads or a log keeps (a Redis
 * URL often carries one: `redis://:secret@host:6379`). A string that is not a URL is returned as
 * it is only when it has no `@` (where a password could hide); else as `<unparsable URL>`.
 */
export function redactUrl(url: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return url.includes('@') ? '<unparsable URL>' : url
  }
  if (parsed.password !== '') parsed.password = '***'
  return parsed.toString()
}
