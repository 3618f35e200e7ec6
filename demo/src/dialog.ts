import { byId } from './dom.js'

/**
 * Asks before something that cannot be undone, in the page's own `<dialog id="confirm">` (not
 * `window.confirm`, which blocks the page and cannot be styled). Resolves true when confirmed;
 * Escape and Cancel resolve false.
 */
export function confirmDialog(options: { title: string; text: string; confirm: string; danger?: boolean }): Promise<boolean> {
  const dialog = byId('confirm', HTMLDialogElement)
  byId('confirm-title').textContent = options.title
  byId('confirm-text').textContent = options.text
  const ok = byId('confirm-ok', HTMLButtonElement)
  ok.textContent = options.confirm
  ok.className = options.danger === false ? 'primary' : 'danger'
  dialog.returnValue = ''
  dialog.showModal()
  return new Promise((resolve) => dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), { once: true }))
}

/**
 * Asks for a name in `<dialog id="rename">`; resolves with it (possibly empty), or null when cancelled
 * (Cancel, Escape). Enter in the field saves: Cancel is `type="button"`, so Save is the form's only
 * submit button and the one implicit submission presses (issue 29: Cancel came first and was it).
 */
export function nameDialog(options: { title: string; text: string; value: string }): Promise<string | null> {
  const dialog = byId('rename', HTMLDialogElement)
  byId('rename-title').textContent = options.title
  byId('rename-text').textContent = options.text
  const input = byId('rename-input', HTMLInputElement)
  input.value = options.value
  byId('rename-cancel', HTMLButtonElement).onclick = () => dialog.close('cancel')
  dialog.returnValue = ''
  dialog.showModal()
  input.select()
  return new Promise((resolve) => dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok' ? input.value.trim() : null), { once: true }))
}
