/** `text` as a literal inside a RegExp: a value or a word found in a text, never a pattern ("$5.50", "c++"). */
export function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
