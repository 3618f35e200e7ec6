/**
 * Reads a V8 heap snapshot (the `.heapsnapshot` JSON DevTools and CDP's HeapProfiler write) into
 * what bench/heap-probe.ts reports: self sizes summed by group (an object's constructor, a string,
 * a hash table's backing store...) and the retained size of each constructor's objects (the
 * dominator tree: what would be freed if those objects went), so a Memory's heap can be split
 * into what a fact costs where. Weak edges do not retain, as in DevTools.
 */
export interface SnapshotGroup {
  readonly group: string
  readonly count: number
  readonly selfBytes: number
}

export interface SnapshotSummary {
  readonly nodes: number
  readonly totalBytes: number
  /** Self sizes by group, largest first. */
  readonly groups: readonly SnapshotGroup[]
  /** Retained bytes of all objects of each named constructor (a constructor's objects inside another's count in both). */
  readonly retained: ReadonlyMap<string, { count: number; bytes: number }>
}

interface RawSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } }
  nodes: number[]
  edges: number[]
  strings: string[]
}

/** The group a node's self size counts under: objects by constructor, the rest by V8's type and name. */
function groupOf(type: string, name: string): string {
  switch (type) {
    case 'object':
      return name.startsWith('system / ') ? name : `object ${name}`
    case 'string':
    case 'concatenated string':
    case 'sliced string':
      return `(string) ${type}`
    case 'array':
    case 'hidden':
    case 'object shape':
      // Backing stores and internals: the name says what (e.g. "(object properties)", "(internal array)").
      return `(${type}) ${name.length > 40 ? name.slice(0, 40) : name}`
    case 'closure':
      return '(closure)'
    case 'code':
      return '(code)'
    default:
      return `(${type})`
  }
}

export function summarizeSnapshot(json: string, constructors: readonly string[]): SnapshotSummary {
  const raw = JSON.parse(json) as RawSnapshot
  const meta = raw.snapshot.meta
  const nf = meta.node_fields.length, ef = meta.edge_fields.length
  const fType = meta.node_fields.indexOf('type'), fName = meta.node_fields.indexOf('name')
  const fSize = meta.node_fields.indexOf('self_size'), fEdges = meta.node_fields.indexOf('edge_count')
  const eType = meta.edge_fields.indexOf('type'), eTo = meta.edge_fields.indexOf('to_node')
  const nodeTypes = meta.node_types[0], edgeTypes = meta.edge_types[0]
  const weak = edgeTypes.indexOf('weak')
  const { nodes, edges, strings } = raw
  const n = nodes.length / nf

  // First edge of each node (edges are stored node after node).
  const firstEdge = new Int32Array(n + 1)
  for (let i = 0, e = 0; i < n; i++) {
    firstEdge[i] = e
    e += nodes[i * nf + fEdges]! * ef
  }
  firstEdge[n] = edges.length
  const selfSize = new Float64Array(n)
  const groups = new Map<string, { count: number; selfBytes: number }>()
  let totalBytes = 0
  for (let i = 0; i < n; i++) {
    const size = nodes[i * nf + fSize]!
    selfSize[i] = size
    totalBytes += size
    const g = groupOf(nodeTypes[nodes[i * nf + fType]!]!, strings[nodes[i * nf + fName]!]!)
    const entry = groups.get(g)
    if (entry) {
      entry.count++
      entry.selfBytes += size
    } else groups.set(g, { count: 1, selfBytes: size })
  }

  // Postorder from the root over strong edges (iterative DFS).
  const post = new Int32Array(n).fill(-1)
  const order: number[] = []
  const visited = new Uint8Array(n)
  const stack = [0], cursor = [firstEdge[0]!]
  visited[0] = 1
  while (stack.length) {
    const top = stack.length - 1
    const v = stack[top]!
    let e = cursor[top]!
    let pushed = false
    while (e < firstEdge[v + 1]!) {
      const type = edges[e + eType]!, to = edges[e + eTo]! / nf
      e += ef
      if (type === weak || visited[to]) continue
      visited[to] = 1
      cursor[top] = e
      stack.push(to)
      cursor.push(firstEdge[to]!)
      pushed = true
      break
    }
    if (pushed) continue
    post[v] = order.length
    order.push(v)
    stack.pop()
    cursor.pop()
  }
  // Predecessors by strong edges among reachable nodes (CSR).
  const predCount = new Int32Array(n + 1)
  for (let v = 0; v < n; v++) {
    if (!visited[v]) continue
    for (let e = firstEdge[v]!; e < firstEdge[v + 1]!; e += ef) {
      if (edges[e + eType] !== weak) predCount[edges[e + eTo]! / nf + 1]!++
    }
  }
  for (let i = 0; i < n; i++) predCount[i + 1]! += predCount[i]!
  const preds = new Int32Array(predCount[n]!)
  const fill = predCount.slice(0, n)
  for (let v = 0; v < n; v++) {
    if (!visited[v]) continue
    for (let e = firstEdge[v]!; e < firstEdge[v + 1]!; e += ef) {
      if (edges[e + eType] !== weak) preds[fill[edges[e + eTo]! / nf]!++] = v
    }
  }
  // Cooper, Harvey and Kennedy's iterative dominators, on postorder numbers.
  const m = order.length
  const idom = new Int32Array(m).fill(-1)
  const rootPo = post[0]!
  idom[rootPo] = rootPo
  for (let changed = true; changed; ) {
    changed = false
    for (let k = m - 1; k >= 0; k--) {
      if (k === rootPo) continue
      const v = order[k]!
      let best = -1
      for (let p = predCount[v]!; p < predCount[v + 1]!; p++) {
        let a = post[preds[p]!]!
        if (a < 0 || idom[a] === -1) continue
        if (best === -1) {
          best = a
          continue
        }
        let b = best
        while (a !== b) {
          while (a < b) a = idom[a]!
          while (b < a) b = idom[b]!
        }
        best = a
      }
      if (best !== -1 && idom[k] !== best) {
        idom[k] = best
        changed = true
      }
    }
  }
  const retainedPo = new Float64Array(m)
  for (let k = 0; k < m; k++) retainedPo[k] = selfSize[order[k]!]!
  for (let k = 0; k < m; k++) if (k !== rootPo && idom[k]! >= 0) retainedPo[idom[k]!]! += retainedPo[k]!

  const wanted = new Set(constructors)
  const retained = new Map<string, { count: number; bytes: number }>()
  const objectType = nodeTypes.indexOf('object')
  for (let v = 0; v < n; v++) {
    if (nodes[v * nf + fType] !== objectType || post[v]! < 0) continue
    const name = strings[nodes[v * nf + fName]!]!
    if (!wanted.has(name)) continue
    const entry = retained.get(name) ?? { count: 0, bytes: 0 }
    entry.count++
    entry.bytes += retainedPo[post[v]!]!
    retained.set(name, entry)
  }
  return {
    nodes: n,
    totalBytes,
    groups: [...groups].map(([group, g]) => ({ group, ...g })).sort((a, b) => b.selfBytes - a.selfBytes),
    retained,
  }
}
