import { useStore } from '../store';
import { rebuildRunning } from '../store/library.slice';
import { Icon } from './Icon';

/**
 * "Rebuild index" for one library, with why it could not start ('busy' included) in words.
 * Stays focusable while a rebuild runs (aria-disabled, not disabled): a keyboard user who pressed
 * it keeps their place instead of being dropped to the top of the page.
 */
export function RebuildButton({ library, primary = false }: { library: string; primary?: boolean }) {
  const running = useStore((s) => rebuildRunning(s, library));
  const error = useStore((s) => s.rebuildErrors[library]);
  const rebuildLibrary = useStore((s) => s.rebuildLibrary);
  const cancelRebuild = useStore((s) => s.cancelRebuild);
  return (
    <div className="rebuild-action">
      <div className="rebuild-buttons">
        <button
          type="button"
          className={primary ? 'btn btn-primary' : 'btn'}
          data-testid="rebuild-index"
          aria-disabled={running}
          onClick={() => {
            if (!running) void rebuildLibrary(library);
          }}
        >
          <Icon name="retry" size={16} /> {running ? 'Rebuilding…' : 'Rebuild index'}
        </button>
        {running ? (
          // A long rebuild can be stopped: the library keeps the index it had.
          <button type="button" className="btn" data-testid="rebuild-cancel" onClick={() => void cancelRebuild(library)}>
            Cancel
          </button>
        ) : null}
      </div>
      {error ? (
        <p className="error small" role="alert" data-testid="rebuild-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * A non-blocking notice above the documents when the library's index was built by an older
 * version of ManualMate; renders nothing once the index is current.
 */
export function RebuildNotice({ library }: { library: string }) {
  const outdated = useStore((s) => s.libraries.find((l) => l.name === library)?.indexOutdated === true);
  if (!outdated) return null;
  return (
    <section className="notice rebuild-notice" data-testid="rebuild-notice" aria-labelledby="rebuild-notice-title">
      <div>
        <strong id="rebuild-notice-title">This library was indexed by an older version of ManualMate.</strong>
        <p>
          Rebuilding the index improves which model each passage is attributed to, so answers come from the right model’s manual (an IO board, for
          example, is now told apart from the module it carries). Your documents are kept and nothing is imported again. Search keeps working while the
          index is rebuilt; on a large library it can take a while.
        </p>
      </div>
      <RebuildButton library={library} primary />
    </section>
  );
}
