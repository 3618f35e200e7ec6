/**
 * Reads an IndexedDB database without Dexie: every value of every object store and every key of
 * every index, as one JSON text. Hard-delete tests search it for deleted content.
 */
export async function dumpIndexedDb(factory: IDBFactory, name: string): Promise<string> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const req = factory.open(name)
    req.onsuccess = () => resolve(req.result)
    req.onerror = () => reject(req.error)
  })
  const out: Record<string, unknown> = {}
  try {
    for (const storeName of Array.from(db.objectStoreNames)) {
      const tx = db.transaction(storeName, 'readonly')
      const store = tx.objectStore(storeName)
      out[`${storeName}:values`] = await request(store.getAll())
      out[`${storeName}:keys`] = await request(store.getAllKeys())
      for (const indexName of Array.from(store.indexNames)) {
        out[`${storeName}.${indexName}:keys`] = await request(store.index(indexName).getAllKeys())
        const indexKeys: unknown[] = []
        await new Promise<void>((resolve, reject) => {
          const cursor = store.index(indexName).openKeyCursor()
          cursor.onsuccess = () => {
            const c = cursor.result
            if (!c) return resolve()
            indexKeys.push(c.key)
            c.continue()
          }
          cursor.onerror = () => reject(cursor.error)
        })
        out[`${storeName}.${indexName}:indexKeys`] = indexKeys
      }
    }
  } finally {
    db.close()
  }
  return JSON.stringify(out, (_k, v) => (ArrayBuffer.isView(v) ? Array.from(v as Uint8Array) : v))
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result)
    req.onerror = () => reject(req.error)
  })
}
