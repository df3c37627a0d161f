import { useEffect, useState } from 'react';
import { shell } from '../api/client';
import { useStore } from '../store';
import { captureDrop } from '../util/files';
import { Icon } from './Icon';

const carriesFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes('Files');

/**
 * Drag-and-drop anywhere on the window. In Electron the shell turns dropped files into granted
 * paths (nothing is copied through the page); in a browser the files (and folders, walked with
 * webkitGetAsEntry) are uploaded to the local engine.
 */
export function DropOverlay() {
  const library = useStore((s) => s.selectedLibrary);
  const ensureLibrary = useStore((s) => s.ensureLibrary);
  const uploadFiles = useStore((s) => s.uploadFiles);
  const startImport = useStore((s) => s.startImport);
  const [active, setActive] = useState(false);

  useEffect(() => {
    // dragenter/dragleave fire for every child crossed; count them so the overlay does not flicker.
    let depth = 0;
    const onEnter = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      depth++;
      setActive(true);
    };
    const onOver = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const onLeave = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setActive(false);
    };
    const onDrop = (e: DragEvent) => {
      depth = 0;
      setActive(false);
      if (!e.dataTransfer || !carriesFiles(e)) return;
      e.preventDefault();
      if (shell.pathsForDroppedFiles) {
        const files = Array.from(e.dataTransfer.files);
        void (async () => {
          const res = await shell.pathsForDroppedFiles!(files);
          if (!res.ok || res.value.length === 0) return;
          const target = await ensureLibrary();
          if (target) await startImport(target, res.value);
        })();
        return;
      }
      const collect = captureDrop(e.dataTransfer);
      void (async () => {
        const { files, skipped, leftOut } = await collect();
        if (files.length === 0 && skipped.length === 0) return;
        const target = await ensureLibrary();
        if (target) await uploadFiles(target, files, skipped, leftOut);
      })();
    };
    window.addEventListener('dragenter', onEnter);
    window.addEventListener('dragover', onOver);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragenter', onEnter);
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('drop', onDrop);
    };
  }, [ensureLibrary, uploadFiles, startImport]);

  if (!active) return null;
  return (
    <div className="drop-overlay" data-testid="drop-overlay" aria-hidden="true">
      <div className="drop-card">
        <Icon name="upload" size={48} />
        <p className="drop-title">Drop to import into {library ?? 'a new library called “Manuals”'}</p>
        <p className="muted">Files and whole folders: PDF, Word, HTML, Markdown, text.</p>
      </div>
    </div>
  );
}
