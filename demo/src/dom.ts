/**
 * The few DOM helpers the demo needs instead of a framework: build an element, replace a
 * container's children, find an element that index.html promises.
 */

type Child = Node | string | number | null | undefined | false
type Attrs = Record<string, string | number | boolean | null | undefined | ((event: Event) => void)>

/** `h('button', { onclick, 'data-testid': 'x' }, 'Label')`: attributes, `on*` listeners, children (falsy ones skipped). */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag)
  for (const [name, value] of Object.entries(attrs)) {
    if (typeof value === 'function') el.addEventListener(name.slice(2), value)
    else if (value === true) el.setAttribute(name, '')
    else if (value !== false && value !== null && value !== undefined) el.setAttribute(name, String(value))
  }
  el.append(...children.filter((c): c is Node | string | number => c !== null && c !== undefined && c !== false).map((c) => (typeof c === 'number' ? String(c) : c)))
  return el
}

/** Replaces the children of `el`. */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren(...children.filter((c): c is Node | string | number => c !== null && c !== undefined && c !== false).map((c) => (typeof c === 'number' ? String(c) : c)))
}

/** The element with `id` of the given type; a missing one is a bug in index.html, so it throws. */
export function byId<T extends HTMLElement = HTMLElement>(id: string, type: new () => T = HTMLElement as unknown as new () => T): T {
  const el = document.getElementById(id)
  if (!(el instanceof type)) throw new Error(`index.html has no <${type.name}> #${id}`)
  return el
}

/** `did:key:z6MkhaXg…Xt4q`: enough to tell agents apart on screen. */
export function shortDid(did: string): string {
  return did.length > 26 ? `${did.slice(0, 16)}…${did.slice(-4)}` : did
}

export function clock(ms: number): string {
  return new Date(ms).toLocaleTimeString([], { hour12: false })
}
