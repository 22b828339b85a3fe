/**
 * A button beside an amount, handle or address that puts it on the clipboard, so the
 * customer pastes it into their app rather than retyping it. It says what it copied, to
 * the eye and to a screen reader.
 */
import { announce, h } from './dom.js';

const COPIED_MS = 2_000;

/** `what` names the value for a screen reader ("amount", "address"); `value` is exactly what gets pasted. */
export function copyButton(what: string, value: string): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'copy', 'aria-label': `Copy ${what}` }, 'Copy');
  button.addEventListener('click', () => {
    // Browsers give the clipboard only to secure pages: a node reached over plain http on another host has none.
    const written = window.isSecureContext && navigator.clipboard ? navigator.clipboard.writeText(value) : Promise.reject(new Error('no clipboard'));
    written.then(
      () => {
        button.textContent = 'Copied';
        announce(`Copied the ${what}`);
        window.setTimeout(() => (button.textContent = 'Copy'), COPIED_MS);
      },
      () => announce(`Could not copy the ${what}: select it and copy it by hand`),
    );
  });
  return button;
}
