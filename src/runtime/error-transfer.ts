import * as Comlink from 'comlink'
import { ErrorCode, MemweaveError, isMemweaveError } from '../core/errors.js'

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
    serialize: ({ value }: ThrownValue) => {
      if (isMemweaveError(value)) {
        return [{ memweave: true, code: value.code, message: value.message, details: value.details, stack: value.stack }, []]
      }
      if (value instanceof Error) return [{ memweave: false, name: value.name, message: value.message, stack: value.stack }, []]
      return [{ memweave: false, name: 'Error', message: String(value) }, []]
    },
    deserialize: (data: { memweave: boolean; code?: ErrorCode; name?: string; message: string; details?: Record<string, unknown>; stack?: string }) => {
      if (data.memweave) {
        const err = new MemweaveError(data.code ?? ErrorCode.INTERNAL, data.message, data.details ?? {})
        if (data.stack) err.stack = `${err.stack}\n    --- in the memweave worker ---\n${data.stack}`
        throw err
      }
      const err = new Error(data.message)
      err.name = data.name ?? 'Error'
      throw err
    },
  } as Comlink.TransferHandler<ThrownValue, unknown> & { memweave: true })
}
