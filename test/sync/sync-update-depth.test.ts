import { expect, test } from 'vitest'
import * as Y from 'yjs'
import { MAX_VALUE_DEPTH, jsonTextDepth, tooDeepStructs, withoutTooDeep } from '../../src/sync/update-depth.js'
import { checkDepth } from '../../src/relay/update-check.js'
import { applyRemoteUpdate, transactionUpdate } from '../../src/sync/yjs-structs.js'

/** Nested arrays (or objects) `depth` levels deep, built without recursion. */
function nested(depth: number, objects = false): unknown {
  let v: unknown = objects ? {} : []
  for (let i = 1; i < depth; i++) v = objects ? { k: v, n: i } : [i, v, 'x']
  return v
}

/** A document with every kind of content Yjs encodes: map values, text with formats and embeds, arrays, XML, binary, a subdocument, deletions. */
function everything(): Y.Doc {
  const doc = new Y.Doc()
  const map = doc.getMap('records')
  map.set('a', { id: 'a', body: { payload: { evidence: ['x', 'y'], n: 1.5, big: 2n ** 40n, ok: true, none: null } } })
  map.set('b', 'a string')
  map.set('bin', new Uint8Array([1, 2, 3]))
  map.set('nested', new Y.Map([['inner', 1]]))
  map.set('doc', new Y.Doc())
  map.set('b', 'overwritten')
  const text = doc.getText('t')
  text.insert(0, 'héllo wörld 🎉', { bold: true })
  text.insertEmbed(3, { image: { src: 'x' } })
  text.format(1, 4, { italic: { deep: [1, [2]] } })
  text.delete(2, 3)
  const arr = doc.getArray('arr')
  arr.insert(0, [1, 'two', { three: [3] }, null])
  arr.delete(1, 1)
  const xml = doc.getXmlFragment('x')
  const el = new Y.XmlElement('p')
  el.setAttribute('class', 'c')
  xml.insert(0, [el, new Y.XmlText('t'), new Y.XmlHook('hook') as unknown as Y.XmlElement])
  return doc
}

test('every kind of content Yjs encodes is walked to its end, and nothing in it is too deep', () => {
  const doc = everything()
  const update = Y.encodeStateAsUpdate(doc)
  expect(tooDeepStructs(update)).toEqual([])
  expect(withoutTooDeep(update).update).toBe(update)
  expect(() => checkDepth(update)).not.toThrow()
})

test('a value deeper than the bound is found, in any kind of value, and replaced by a GC of its length; the rest applies', () => {
  const doc = everything()
  const map = doc.getMap('records')
  const before = Y.encodeStateVector(doc)
  map.set('deep-array', nested(5_000))
  map.set('deep-object', nested(MAX_VALUE_DEPTH + 1, true))
  map.set('at-bound', nested(MAX_VALUE_DEPTH, true))
  doc.getArray('arr').push([nested(300), 'same struct'])
  map.set('later', 'kept')
  const update = Y.encodeStateAsUpdate(doc, before)
  const found = tooDeepStructs(update)
  expect(found).toHaveLength(3)
  expect(() => checkDepth(update)).toThrow(/too-deep: a value nests more than 128 levels/)

  const full = Y.encodeStateAsUpdate(doc)
  const { update: safe, dropped } = withoutTooDeep(full)
  expect(dropped).toBe(3)
  const copy = new Y.Doc()
  Y.applyUpdate(copy, safe)
  expect(copy.store.pendingStructs).toBeNull()
  const m = copy.getMap('records')
  expect(m.has('deep-array')).toBe(false)
  expect(m.has('deep-object')).toBe(false)
  expect(m.get('at-bound')).toEqual(nested(MAX_VALUE_DEPTH, true))
  expect(m.get('later')).toBe('kept')
  expect(m.get('b')).toBe('overwritten')
  expect(copy.getText('t').toString()).toBe(doc.getText('t').toString())
  // The array's deep item went whole, with the value written in the same struct; what was there before stays.
  expect(copy.getArray('arr').toArray()).toEqual([1, { three: [3] }, null])
  // The same clocks: the state vectors agree, so no peer is asked for the dropped structs again.
  expect(Y.encodeStateVector(copy)).toEqual(Y.encodeStateVector(doc))
})

test('legacy JSON content (ContentJSON) is measured from its text', () => {
  expect(jsonTextDepth('[[["]]]]]]]"]]]')).toBe(3)
  expect(jsonTextDepth('{"a":"\\"[[[[","b":[{}]}')).toBe(3)
  expect(jsonTextDepth('"[[[["')).toBe(0)
  expect(jsonTextDepth('['.repeat(500) + ']'.repeat(500), 128)).toBe(129)
})

test('bytes that are not an update are refused as malformed, not walked forever', () => {
  for (const bytes of [new Uint8Array([1]), new Uint8Array([1, 1, 1, 0, 99]), new Uint8Array([1, 1, 5, 0, 8, 0, 1, 1, 1, 2, 8, 1, 100])]) {
    expect(() => tooDeepStructs(bytes)).toThrow()
    expect(() => checkDepth(bytes)).toThrow(/not a valid Yjs update/)
  }
})

test('a replica applying a received update with a value 200,000 levels deep (a relay that let it through) keeps the rest and does not throw', () => {
  const writer = new Y.Doc()
  writer.getMap('records').set('deep', 'placeholder')
  writer.getMap('records').set('honest', { kind: 'pool-memory' })
  const plain = Y.encodeStateAsUpdate(writer)
  const placeholder = Buffer.from([119, 11, ...Buffer.from('placeholder')])
  const at = Buffer.from(plain).indexOf(placeholder)
  const deep = new Uint8Array(400_000)
  for (let i = 0; i < 200_000; i++) deep.set([117, i === 199_999 ? 0 : 1], i * 2)
  const update = Buffer.concat([plain.subarray(0, at), deep, plain.subarray(at + placeholder.length)])
  const doc = new Y.Doc()
  expect(() => Y.applyUpdate(new Y.Doc(), update)).toThrow(RangeError)
  let persisted: Uint8Array | null = null
  doc.on('afterTransactionCleanup', (tr: Y.Transaction) => (persisted = transactionUpdate(tr)))
  applyRemoteUpdate(doc, update, 'link')
  expect(doc.getMap('records').get('honest')).toEqual({ kind: 'pool-memory' })
  expect(doc.getMap('records').has('deep')).toBe(false)
  // What the replica persists is what it applied: it loads again without the deep value.
  expect(persisted!.length).toBeLessThan(100)
  const again = new Y.Doc()
  Y.applyUpdate(again, persisted!)
  expect(again.getMap('records').get('honest')).toEqual({ kind: 'pool-memory' })
})
