import { fileURLToPath } from 'node:url'
import { resolve } from 'node:path'

/** The ../shared folder beside the repo (specs, vectors, data); MEMWEAVE_SHARED overrides it. */
export const SHARED_DIR = process.env['MEMWEAVE_SHARED'] ?? resolve(fileURLToPath(new URL('../..', import.meta.url)), '..', 'shared')
