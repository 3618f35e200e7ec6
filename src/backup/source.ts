import { invalidArgument } from '../core/errors.js'

/**
 * What a backup may be read from: the whole text, chunks of text or UTF-8 bytes in an iterable or
 * async iterable (a Node stream, an array of lines), or a web ReadableStream (`file.stream()` of a
 * file input), read through its reader where it is not async-iterable.
 */
export type BackupSource =
  | string
  | Iterable<string | Uint8Array>
  | AsyncIterable<string | Uint8Array>
  | ReadableStream<Uint8Array>
  | ReadableStream<string>

/** The chunks of a source, in order. @throws MemweaveError INVALID_ARGUMENT for anything else. */
export async function* chunksOf(source: BackupSource): AsyncGenerator<string | Uint8Array> {
  if (typeof source === 'string') {
    yield source
    return
  }
  const stream = source as { getReader?: unknown }
  if (source && typeof stream.getReader === 'function') {
    const reader = (source as ReadableStream<string | Uint8Array>).getReader()
    try {
      for (let r = await reader.read(); !r.done; r = await reader.read()) yield r.value
    } finally {
      reader.releaseLock()
    }
    return
  }
  if (source && (Symbol.asyncIterator in source || Symbol.iterator in source)) {
    for await (const chunk of source as AsyncIterable<string | Uint8Array>) yield chunk
    return
  }
  throw invalidArgument('lines', 'must be a string, an iterable or async iterable of strings or bytes, or a ReadableStream')
}
