import { useEffect, useRef, type ReactNode } from 'react';
import { restoreFocus } from '../util/focus';

/**
 * A modal confirmation (native <dialog>: focus is trapped, Esc cancels). The confirm button is
 * not focused first, so a stray Enter never deletes anything.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  danger = false,
  onConfirm,
  onCancel,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  useEffect(() => {
    const dialog = ref.current;
    opener.current = document.activeElement;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      dialog?.close();
      restoreFocus(opener.current);
    };
  }, []);
  // Focus goes back to the opener while the page still shows it as it was: once the parent drops
  // the dialog, the page behind may re-render (a row's actions show only while it has focus) and
  // a dialog taken out of the page gets no focus return from the browser.
  const finish = (then: () => void) => {
    ref.current?.close();
    restoreFocus(opener.current);
    then();
  };
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby="confirm-title"
      onCancel={(e) => {
        e.preventDefault();
        finish(onCancel);
      }}
      data-testid="confirm-dialog"
    >
      <h2 id="confirm-title">{title}</h2>
      <div className="dialog-body">{children}</div>
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={() => finish(onCancel)} autoFocus>
          Cancel
        </button>
        <button type="button" className={danger ? 'btn btn-danger' : 'btn btn-primary'} onClick={() => finish(onConfirm)}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
