import { ErrorCode, MemweaveError } from './errors.js'

/**
 * Loads an optional peer dependency of a Node-only feature (the relay's `ws`, the MCP SDK), so a
 * browser app that installs memweave never installs them. A missing one is a coded error that
 * says what to install, instead of Node's "Cannot find package" from deep inside an import.
 *
 * @throws MemweaveError CAPABILITY_NOT_SUPPORTED when a package of `install` is not installed.
 */
export async function loadPeer<T>(feature: string, install: readonly string[], load: () => Promise<T>): Promise<T> {
  try {
    return await load()
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code
    const message = String((err as { message?: unknown } | null)?.message ?? '')
    const missing = install.find((pkg) => message.includes(`'${pkg}'`) || message.includes(`"${pkg}"`))
    if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && missing) {
      throw new MemweaveError(
        ErrorCode.CAPABILITY_NOT_SUPPORTED,
        `${feature} needs the optional package "${missing}", which is not installed: npm install ${install.join(' ')}`,
        { capability: missing, operation: feature },
        { cause: err },
      )
    }
    throw err
  }
}
