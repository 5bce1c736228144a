'use client';
/** The review queue's keyboard shortcuts, in a modal dialog opened with `?` (native <dialog>: focus is trapped and Escape closes it). */
import { useEffect, useRef } from 'react';
import styles from './console.module.css';

export const SHORTCUTS: ReadonlyArray<readonly [string, string]> = [
  ['j or ↓', 'next item (from outside the list: the current item)'],
  ['k or ↑', 'previous item'],
  ['c', 'confirm harmful (the selected items, if any)'],
  ['o', 'overturn as a false positive (the selected items, if any)'],
  ['n', 'write a note on the current item'],
  ['x', 'select or unselect the current item'],
  ['u', 'undo the last decision'],
  ['m', 'claim the current item (again: release it)'],
  ['1 … 9', "the current item's reason: the first to ninth in the reason list"],
  ['?', 'show this list'],
  ['Esc', 'back to the current item from any field (a reason list, a note), or close this list'],
];

export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog ref={ref} className={styles.dialog} aria-labelledby="shortcuts-title" data-testid="shortcuts-dialog" onClose={onClose}>
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      <p className="muted">In the review queue, when no text field has the focus.</p>
      <dl className={styles.shortcuts}>
        {SHORTCUTS.map(([key, what]) => (
          <div key={key}>
            <dt>
              <kbd>{key}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <form method="dialog">
        {/* biome-ignore lint/a11y/noAutofocus: inside a modal <dialog>, autofocus is how HTML picks the initial focus (the rule does not see the dialog). */}
        <button type="submit" data-testid="shortcuts-close" autoFocus>
          Close
        </button>
      </form>
    </dialog>
  );
}
