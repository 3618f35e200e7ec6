/** The shape of every memory tool's input: a flat object of strings and numbers. */
export interface FlatSchema {
  readonly properties: Readonly<Record<string, { readonly type: 'string' | 'number'; readonly description: string; readonly minimum?: number; readonly maximum?: number }>>
  readonly required: readonly string[]
}

/** The JSON Schema a model is shown: unknown keys are refused (additionalProperties: false). */
export function toJsonSchema(schema: FlatSchema): { type: 'object'; properties: Record<string, object>; required: string[]; additionalProperties: false } {
  return { type: 'object', properties: { ...schema.properties }, required: [...schema.required], additionalProperties: false }
}

/**
 * Checks a model's tool input against its schema before anything runs: a model that invents a key
 * or sends a number as a string gets an error naming the field (and may try again), never a
 * silently ignored argument.
 */
export function checkInput(schema: FlatSchema, value: unknown): { success: true; value: Record<string, unknown> } | { success: false; error: Error } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { success: false, error: new TypeError('the input must be a JSON object') }
  const input = value as Record<string, unknown>
  for (const key of Object.keys(input)) {
    if (!Object.hasOwn(schema.properties, key)) return { success: false, error: new TypeError(`unknown field "${key}"; allowed: ${Object.keys(schema.properties).join(', ')}`) }
  }
  for (const key of schema.required) {
    if (input[key] === undefined || input[key] === null) return { success: false, error: new TypeError(`missing required field "${key}"`) }
  }
  for (const [key, spec] of Object.entries(schema.properties)) {
    const v = input[key]
    if (v === undefined || v === null) continue
    if (spec.type === 'string' && (typeof v !== 'string' || v.trim() === '')) return { success: false, error: new TypeError(`field "${key}" must be a non-empty string`) }
    if (spec.type === 'number') {
      if (typeof v !== 'number' || !Number.isFinite(v)) return { success: false, error: new TypeError(`field "${key}" must be a number`) }
      if ((spec.minimum !== undefined && v < spec.minimum) || (spec.maximum !== undefined && v > spec.maximum)) {
        return { success: false, error: new RangeError(`field "${key}" must be between ${spec.minimum ?? '-inf'} and ${spec.maximum ?? 'inf'}`) }
      }
    }
  }
  return { success: true, value: input }
}
