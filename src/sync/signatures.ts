/**
 * The sync layer's signature verdicts: the shared cache of src/core (one per Memory, shared with
 * the pools module, so a record that arrives by sync is verified once).
 */
export { SignatureCache } from '../core/signature-cache.js'
