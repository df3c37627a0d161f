import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { ChunkStrategy, EnrichMode } from '../../../src-main/contract/api';
import { useStore } from '../store';
import type { ThemeChoice } from '../store/ui.slice';
import { formatBytes } from '../util/format';
import { EmbeddingStatus, IndexStatus } from './IndexStatus';
import { RadioGroup, type RadioChoice } from './RadioGroup';
import { RebuildButton } from './RebuildNotice';
import { TeamSettings } from './TeamSettings';

const STRATEGIES: { value: ChunkStrategy; label: string; hint: string }[] = [
  { value: 'structure', label: 'Structure', hint: 'Follows headings; tables, code and lists are never split. Best for most manuals.' },
  { value: 'structural', label: 'Structural', hint: 'Classifies paragraphs (specifications, procedures…) for spec sheets and service reports.' },
  { value: 'recursive', label: 'Recursive', hint: 'Splits at paragraphs, then sentences, to a size limit.' },
  { value: 'naive', label: 'Fixed size', hint: '500-token windows with overlap; a baseline for comparison.' },
  { value: 'semantic', label: 'Semantic', hint: 'Splits where the topic changes between sentences.' },
];

const ENRICH: { value: EnrichMode; label: string; hint: string }[] = [
  { value: 'heuristic', label: 'Rules (no model)', hint: 'Signatures and keys from rules and library statistics. Fast, always available.' },
  { value: 'llm', label: 'Language model', hint: 'The chat model writes signatures and keys; slower, needs a GGUF model.' },
  { value: 'llm-single', label: 'Language model, one call', hint: 'Continuity, signature and keys in a single call per chunk.' },
];

const STATE_LABEL = { 'not-loaded': 'Not loaded', loading: 'Loading', ready: 'Ready', failed: 'Failed' } as const;

const THEMES: RadioChoice<ThemeChoice>[] = [
  { value: 'system', label: 'Follow system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** Settings: offline status, models and their state, the chat model, per-library chunking, enrichment and embedding model, theme. */
export function SettingsView() {
  const { models, modelsLoaded, appInfo, appSettings, settingsError, configuring } = useStore(
    useShallow((s) => ({ models: s.models, modelsLoaded: s.modelsLoaded, appInfo: s.appInfo, appSettings: s.appSettings, settingsError: s.settingsError, configuring: s.configuring })),
  );
  const library = useStore((s) => s.libraries.find((l) => l.name === s.selectedLibrary) ?? null);
  const anySubscribed = useStore((s) => s.libraries.some((l) => l.subscription));
  const { loadModels, loadSettings, setChatModel, configureLibrary, theme, setTheme } = useStore(
    useShallow((s) => ({ loadModels: s.loadModels, loadSettings: s.loadSettings, setChatModel: s.setChatModel, configureLibrary: s.configureLibrary, theme: s.theme, setTheme: s.setTheme })),
  );
  useEffect(() => {
    void loadModels();
    void loadSettings();
  }, [loadModels, loadSettings]);

  const llms = models.filter((m) => m.kinds.includes('llm'));
  const embedders = models.filter((m) => m.kinds.includes('embedder'));
  // A library can name a model that has since left the models folder: keep it visible in the select.
  const missingEmbedder = library?.embedder && !embedders.some((m) => m.id === library.embedder) ? library.embedder : null;
  const embedderModel = embedders.find((m) => m.id === library?.embedder);
  const needsChatModel = library !== null && library.enrich !== 'heuristic' && !appSettings?.chatModel;
  const strategyHint = STRATEGIES.find((s) => s.value === library?.strategy)?.hint;
  const enrichHint = ENRICH.find((e) => e.value === library?.enrich)?.hint;

  return (
    <section className="settings" aria-labelledby="settings-heading">
      <h2 id="settings-heading">Settings</h2>
      {settingsError ? (
        <p className="error" role="alert">
          {settingsError}
        </p>
      ) : null}

      <div className="card offline-card" data-testid="offline-card">
        <span className="offline-dot" aria-hidden="true" />
        <div>
          <h3>Offline, always</h3>
          <p className="muted">
            {anySubscribed
              ? 'Manuals, questions and models stay on this computer. ManualMate connects only to your team’s object storage, for the libraries subscribed from it.'
              : 'ManualMate never connects to the internet. Manuals, questions and models stay on this computer.'}
          </p>
          {appInfo ? <p className="muted small">Data folder: {appInfo.dataDir}</p> : null}
        </div>
      </div>

      <div className="card">
        <h3>Models</h3>
        {modelsLoaded && models.length === 0 ? (
          <div data-testid="no-models">
            <p>No models found. ManualMate works without them: answers are then quoted word for word from your manuals, and search uses keywords.</p>
            <p className="muted small">
              For written answers put a GGUF language model, and for meaning-based search an ONNX embedding model, in the <code>models</code> folder of the
              app or of the data folder{appInfo ? ` (${appInfo.dataDir}/models)` : ''}, then reopen this page.
            </p>
          </div>
        ) : (
          <div className="table-wrap">
            <table className="doc-table models-table" data-testid="models-table">
              <thead>
                <tr>
                  <th scope="col">Model</th>
                  <th scope="col">Used for</th>
                  <th scope="col">Format</th>
                  <th scope="col" className="num">
                    Size
                  </th>
                  <th scope="col">Found in</th>
                  <th scope="col">State</th>
                </tr>
              </thead>
              <tbody>
                {models.map((m) => (
                  <tr key={`${m.source}:${m.id}`}>
                    <td>
                      {m.id}
                      {appSettings?.chatModel === m.id ? <span className="chip chip-static chip-model">chat</span> : null}
                    </td>
                    <td>{m.kinds.map((k) => (k === 'llm' ? 'chat, enrichment' : 'embedding')).join(', ')}</td>
                    <td>{m.format.toUpperCase()}</td>
                    <td className="num">{formatBytes(m.sizeBytes)}</td>
                    <td>{m.source === 'bundled' ? 'app' : 'data folder'}</td>
                    <td>
                      <span className={`status model-${m.state}`}>{STATE_LABEL[m.state]}</span>
                      {m.reason ? <div className="reason">{m.reason}</div> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <div className="field">
          <label htmlFor="chat-model">Chat answers</label>
          <select
            id="chat-model"
            value={appSettings?.chatModel ?? ''}
            disabled={llms.length === 0}
            onChange={(e) => void setChatModel(e.target.value || null)}
          >
            <option value="">Extracted (no language model)</option>
            {llms.map((m) => (
              <option key={m.id} value={m.id}>
                {m.id}
              </option>
            ))}
          </select>
          <p className="muted small">
            {llms.length === 0
              ? 'No language model is installed: answers quote your manuals word for word, each with its source and page.'
              : 'The chosen model writes answers from the cited passages; “Extracted” quotes them instead.'}
          </p>
        </div>
      </div>

      <TeamSettings />

      {library && !library.subscription ? (
        <div className="card" data-testid="library-settings">
          <h3>Library “{library.name}”</h3>
          <div className="field">
            <label htmlFor="strategy">Chunking</label>
            <select
              id="strategy"
              value={library.strategy}
              disabled={configuring !== null}
              onChange={(e) => void configureLibrary(library.name, { strategy: e.target.value as ChunkStrategy })}
            >
              {STRATEGIES.map((s) => {
                // Semantic chunking embeds every sentence: offered once the library has an embedder.
                const needsEmbedder = s.value === 'semantic' && library.embedder === null;
                return (
                  <option key={s.value} value={s.value} disabled={needsEmbedder}>
                    {needsEmbedder ? `${s.label} (needs an embedding model)` : s.label}
                  </option>
                );
              })}
            </select>
            <p className="muted small">
              {strategyHint} Changing it re-chunks every document of this library{configuring === library.name ? ': working…' : '.'}
            </p>
          </div>
          <div className="field">
            <label htmlFor="enrich">Enrichment</label>
            <select id="enrich" value={library.enrich} disabled={configuring !== null} onChange={(e) => void configureLibrary(library.name, { enrich: e.target.value as EnrichMode })}>
              {ENRICH.map((m) => (
                <option key={m.value} value={m.value} disabled={m.value !== 'heuristic' && llms.length === 0}>
                  {m.label}
                  {m.value !== 'heuristic' && llms.length === 0 ? ' (needs a model)' : ''}
                </option>
              ))}
            </select>
            <p className="muted small">{enrichHint} Applies to documents imported from now on.</p>
            {needsChatModel ? (
              <p className="warn small" role="note" data-testid="enrich-needs-chat-model">
                Enrichment with a language model needs a chat model: choose one under “Chat answers” above. Until then chunks keep the rule-based
                enrichment.
              </p>
            ) : null}
            {/* The note above already says what the engine's "needs a chat model" report would. */}
            {needsChatModel ? null : <IndexStatus library={library.name} task="enriching" showDone />}
          </div>
          <div className="field">
            <label htmlFor="embedder">Embedding model</label>
            <select
              id="embedder"
              value={library.embedder ?? ''}
              disabled={configuring !== null || (embedders.length === 0 && !library.embedder)}
              onChange={(e) => void configureLibrary(library.name, { embedder: e.target.value || null })}
            >
              <option value="">None (keyword search only)</option>
              {embedders.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.id} ({m.format.toUpperCase()})
                </option>
              ))}
              {missingEmbedder ? <option value={missingEmbedder}>{missingEmbedder} (missing)</option> : null}
            </select>
            <p className="muted small" data-testid="embedder-hint">
              {library.embedder
                ? `In use: ${library.embedder}${embedderModel ? ` (${STATE_LABEL[embedderModel.state].toLowerCase()})` : ', which is no longer in the models folder'}. Search finds passages by meaning as well as by keywords. Choosing another model re-embeds this library in the background.`
                : embedders.length === 0
                  ? 'No embedding model is installed: search uses keywords. Put an ONNX embedding model in the models folder to search by meaning.'
                  : 'None: search uses keywords only. Choosing a model embeds this library in the background and enables meaning-based search; keyword search keeps working meanwhile.'}
            </p>
            <EmbeddingStatus library={library.name} showDone />
          </div>
          <div className="field" data-testid="rebuild-field" role="group" aria-labelledby="rebuild-field-title">
            <span className="field-title" id="rebuild-field-title">
              Index
            </span>
            {library.indexOutdated ? (
              <p className="warn small" data-testid="index-outdated">
                This library was indexed by an older version of ManualMate. Rebuilding improves which model each passage is attributed to.
              </p>
            ) : null}
            <p className="muted small">
              Chunks, enriches and indexes every stored document of this library again with this version of ManualMate. Documents are kept and nothing is
              imported again; search uses the current index until the new one is complete.
            </p>
            <RebuildButton library={library.name} />
            <IndexStatus library={library.name} task="rebuilding" showDone />
          </div>
        </div>
      ) : null}

      <div className="card">
        <h3>Appearance</h3>
        <RadioGroup label="Theme" choices={THEMES} value={theme} onChange={setTheme} />
      </div>
    </section>
  );
}
