import * as Comlink from 'comlink'
import { ErrorCode, MemweaveError, isMemweaveError } from '../core/errors.js'

/** A thrown value as it crosses postMessage: a MemweaveError keeps its code and details. */
export type WireError =
  | { readonly memweave: true; readonly code: ErrorCode; readonly message: string; readonly details: Record<string, unknown>; readonly stack?: string | undefined }
  | { readonly memweave: false; readonly name: string; readonly message: string; readonly stack?: string | undefined }

/** A thrown value as plain data (comlink's 'throw' handler, and the failed calls of a batch: remote-call.ts). */
export function errorToWire(value: unknown): WireError {
  if (isMemweaveError(value)) return { memweave: true, code: value.code, message: value.message, details: value.details, stack: value.stack }
  if (value instanceof Error) return { memweave: false, name: value.name, message: value.message, stack: value.stack }
  return { memweave: false, name: 'Error', message: String(value) }
}

/** The error `errorToWire` describes, rebuilt on this side: a MemweaveError with its code, the worker's stack appended. */
export function errorFromWire(data: WireError): Error {
  if (data.memweave) {
    const err = new MemweaveError(data.code ?? ErrorCode.INTERNAL, data.message, data.details ?? {})
    if (data.stack) err.stack = `${err.stack}\n    --- in the memweave worker ---\n${data.stack}`
    return err
  }
  const err = new Error(data.message)
  err.name = data.name ?? 'Error'
  return err
}

interface ThrownValue {
  readonly isError: boolean
  readonly value: unknown
}

/**
 * Replaces comlink's 'throw' handler so errors keep their class, code, details and message across
 * the worker boundary: `err.code === 'CAPABILITY_NOT_SUPPORTED'` works in the page. Installed on
 * both sides; idempotent.
 */
export function installErrorTransfer(): void {
  const original = Comlink.transferHandlers.get('throw')
  if (!original || (original as { memweave?: boolean }).memweave) return
  // comlink does not export its throw marker; its own handler still recognises thrown values.
  const isThrown = original.canHandle.bind(original)
  Comlink.transferHandlers.set('throw', {
    memweave: true,
    canHandle: (value: unknown): value is ThrownValue => isThrown(value),
    serialize: ({ value }: ThrownValue) => [errorToWire(value), []],
    deserialize: (data: WireError) => {
      throw errorFromWire(data)
    },
  } as Comlink.TransferHandler<ThrownValue, unknown> & { memweave: true })
}
