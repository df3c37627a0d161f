import { useEffect, useMemo, useRef, useState, type ComponentProps } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { ChatTurn, Citation, DocumentSummary, ModelChoice } from '../../../src-main/contract/api';
import { withoutExtractedLabel } from '../../../src-main/core/extracted-label';
import { useStore } from '../store';
import { formatDate, formatPages, plainText, spokenCitations } from '../util/format';
import { MAX_QUESTION_CHARS } from '../util/messages';
import { answerModels, listed, modelsWithoutManual } from '../util/answer-models';
import { openQuestionBack } from '../util/question-back';
import { remarkCitations, remarkInlineAsText, remarkLineEndCitations } from '../viewer/markdown.plugins';
import { SafeMarkdown } from '../viewer/SafeMarkdown';
import { CitationChip } from './CitationChip';
import { ConfirmDialog } from './ConfirmDialog';
import { Icon } from './Icon';
import { focusQuestion } from './focus-question';
import { ModelChips } from './ModelChips';
import { UnsentQuestions } from './UnsentQuestions';

/**
 * Chat: conversations on the left, the transcript with cited answers, the question box. Where
 * the panel is too narrow for the list (small window, zoom, the viewer open), a "Conversations"
 * button opens it as a drawer over the transcript instead.
 */
export function ChatView() {
  const [drawerOpen, setDrawerOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const closeDrawer = (returnFocus: boolean) => {
    setDrawerOpen(false);
    if (returnFocus) toggle.current?.focus();
  };
  return (
    <section
      className={drawerOpen ? 'chat drawer-open' : 'chat'}
      aria-label="Chat"
      onBlur={(e) => {
        // Focus that leaves the drawer (Tab past its last button) closes it: else it stays over the
        // composer while focus moves to the model list and question box hidden under it.
        const to = e.relatedTarget;
        if (!drawerOpen || !(to instanceof Node) || to === toggle.current) return;
        if (!e.currentTarget.querySelector('#conversations')?.contains(to)) setDrawerOpen(false);
      }}
    >
      <ConversationList drawerOpen={drawerOpen} onDone={closeDrawer} />
      <div className="chat-main">
        <div className="chat-bar">
          <button
            ref={toggle}
            type="button"
            className="btn btn-small conversations-toggle"
            aria-expanded={drawerOpen}
            aria-controls="conversations"
            onClick={() => setDrawerOpen(!drawerOpen)}
            data-testid="conversations-toggle"
          >
            <Icon name="menu" size={16} /> Conversations
          </button>
        </div>
        <Transcript />
        <AnswerStatus />
        <Composer />
      </div>
    </section>
  );
}

/** `onDone(returnFocus)` closes the drawer (where the list is one) after a choice or Esc. */
function ConversationList({ drawerOpen, onDone }: { drawerOpen: boolean; onDone: (returnFocus: boolean) => void }) {
  const conversations = useStore((s) => s.conversations);
  const activeId = useStore((s) => s.activeConversation?.id ?? null);
  const { openConversation, newConversation, deleteConversation, renameConversation, exportConversation } = useStore(
    useShallow((s) => ({
      openConversation: s.openConversation,
      newConversation: s.newConversation,
      deleteConversation: s.deleteConversation,
      renameConversation: s.renameConversation,
      exportConversation: s.exportConversation,
    })),
  );
  const [renaming, setRenaming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<{ id: string; title: string } | null>(null);
  const [title, setTitle] = useState('');
  const first = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    if (drawerOpen) first.current?.focus();
  }, [drawerOpen]);
  // After a delete, the place the deleted conversation had in the list: its Delete button went
  // with it, so focus goes to the conversation now there (or the one above it, or the question box).
  const [refocusAt, setRefocusAt] = useState<number | null>(null);
  // The rename field goes when the rename is saved or given up: focus goes to the conversation
  // (mounted anew in its place), never to <body>. Only the open conversation can be renamed.
  const [refocusOpen, setRefocusOpen] = useState(false);
  const endRename = () => {
    setRenaming(null);
    setRefocusOpen(true);
  };
  useEffect(() => {
    if (!refocusOpen || renaming !== null) return;
    setRefocusOpen(false);
    list.current?.querySelector<HTMLElement>('.conversation-item[aria-current="true"]')?.focus();
  }, [refocusOpen, renaming, conversations]);
  useEffect(() => {
    if (refocusAt === null) return;
    setRefocusAt(null);
    const items = list.current?.querySelectorAll<HTMLElement>('.conversation-item') ?? [];
    const target = items[refocusAt] ?? items[refocusAt - 1];
    if (target) target.focus();
    else focusQuestion();
  }, [refocusAt, conversations]);
  return (
    <nav
      id="conversations"
      className="conversations"
      aria-label="Conversations"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && drawerOpen && !e.defaultPrevented) {
          // Handled here so the app's Esc (stop an answer, close the viewer) does not also fire.
          e.preventDefault();
          onDone(true);
        }
      }}
    >
      <button
        ref={first}
        type="button"
        className="btn btn-primary new-conversation"
        onClick={() => {
          newConversation();
          onDone(false);
          focusQuestion();
        }}
      >
        <Icon name="plus" /> New conversation
      </button>
      {conversations.length === 0 ? <p className="muted small pad-s">Your conversations appear here.</p> : null}
      <ul ref={list} className="conversation-list" data-testid="conversation-list">
        {conversations.map((c) => (
          <li key={c.id} className={c.id === activeId ? 'conversation selected' : 'conversation'}>
            {renaming === c.id ? (
              <form
                className="rename-form"
                onSubmit={(e) => {
                  e.preventDefault();
                  void renameConversation(c.id, title).then(endRename);
                }}
              >
                <label className="visually-hidden" htmlFor={`rename-${c.id}`}>
                  Conversation title
                </label>
                <input id={`rename-${c.id}`} value={title} autoFocus maxLength={200} onChange={(e) => setTitle(e.target.value)} onKeyDown={(e) => e.key === 'Escape' && (e.stopPropagation(), endRename())} />
              </form>
            ) : (
              <button
                type="button"
                className="conversation-item"
                aria-current={c.id === activeId ? 'true' : undefined}
                onClick={() => {
                  const at = conversations.findIndex((x) => x.id === c.id);
                  void openConversation(c.id).then(() => {
                    onDone(false);
                    // Deleted elsewhere, it left the list with this button: focus goes where it goes after a delete here.
                    if (!useStore.getState().conversations.some((x) => x.id === c.id)) setRefocusAt(Math.max(0, at));
                  });
                }}
              >
                {/* The full title on hover: a long one is cut off, and several may start alike. */}
                <span className="conversation-title" title={c.title || 'Untitled'}>
                  {c.title || 'Untitled'}
                </span>
                <span className="muted small">{formatDate(c.updatedAt)}</span>
              </button>
            )}
            {c.id === activeId && renaming !== c.id ? (
              <span className="conversation-actions">
                <button
                  type="button"
                  className="icon-btn"
                  aria-label="Rename conversation"
                  title="Rename"
                  onClick={() => {
                    setTitle(c.title);
                    setRenaming(c.id);
                  }}
                >
                  <Icon name="pencil" size={15} />
                </button>
                <button type="button" className="icon-btn" aria-label="Export conversation" title="Export as Markdown" onClick={() => void exportConversation(c.id)}>
                  <Icon name="download" size={15} />
                </button>
                <button type="button" className="icon-btn" aria-label="Delete conversation" title="Delete" onClick={() => setDeleting({ id: c.id, title: c.title })}>
                  <Icon name="trash" size={15} />
                </button>
              </span>
            ) : null}
          </li>
        ))}
      </ul>
      {deleting ? (
        <ConfirmDialog
          title={`Delete “${deleting.title || 'Untitled'}”?`}
          confirmLabel="Delete conversation"
          danger
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            const id = deleting.id;
            const at = conversations.findIndex((c) => c.id === id);
            setDeleting(null);
            void deleteConversation(id).then(() => setRefocusAt(Math.max(0, at)));
          }}
        >
          <p>The questions and answers in it are removed from this computer. Your manuals are not touched.</p>
        </ConfirmDialog>
      ) : null}
    </nav>
  );
}

function Transcript() {
  const messages = useStore((s) => s.activeConversation?.messages);
  const streaming = useStore((s) => (s.streaming && s.streaming.conversationId === s.activeConversation?.id ? s.streaming : null));
  const chatError = useStore((s) => s.chatError);
  const end = useRef<HTMLDivElement>(null);

  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [messages?.length, streaming?.text]);

  if (!messages || messages.length === 0) return <ChatEmpty error={chatError} />;
  // While an answer is written the question is the last turn, so no candidates are offered then.
  const choices = openQuestionBack(messages);
  return (
    // Not a live region: opening a conversation (or coming back to a library) read the whole
    // transcript aloud. AnswerStatus says what is new: an answer being written, then the answer.
    <div className="transcript" data-testid="transcript" aria-busy={streaming ? true : undefined}>
      {messages.map((m, i) => (m.role === 'user' ? <Question key={m.id} turn={m} /> : <Answer key={m.id} turn={m} choices={i === messages.length - 1 ? choices : []} />))}
      {streaming ? (
        <article className="answer answer-streaming" data-testid="streaming-answer">
          <div className="answer-meta">
            <span className="badge badge-live">{streaming.stopping ? 'Stopping…' : 'Answering…'}</span>
          </div>
          <div className="markdown answer-text">
            {streaming.text ? <SafeMarkdown text={answerText(streaming.text)} /> : <p className="muted">Looking through the manuals…</p>}
          </div>
        </article>
      ) : null}
      {chatError ? (
        <p className="error" role="alert">
          {chatError}
        </p>
      ) : null}
      <div ref={end} />
    </div>
  );
}

/** What a screen reader says of a finished answer: its kind, then its words as plain text, its markers as sources. */
function answerSpoken(turn: ChatTurn): string {
  const kind = turn.mode === 'extracted' ? 'Extracted from your manuals' : turn.mode === 'not-found' ? 'Not found in this library' : 'Written answer';
  // A question back's candidates are buttons after the answer: said, else only a visit to the transcript finds them.
  const buttons = openQuestionBack([turn]).length > 0 ? ' An “Answer for” button for each model follows the answer.' : '';
  if (stoppedEmpty(turn)) return `${kind}, stopped: ${STOPPED_EMPTY}`;
  return `${kind}${turn.stopped ? ', stopped' : ''}: ${spokenCitations(plainText(answerText(turn.text)), new Set((turn.citations ?? []).map((c) => c.n)), turn.mode === 'extracted')}${buttons}`;
}

/**
 * The chat's one live region, for screen readers: "Answering…" while an answer asked here is
 * written, then that answer. It stays in the page (a region added with its text is not read out),
 * and what an opened conversation already holds is never put in it.
 */
function AnswerStatus() {
  const conversationId = useStore((s) => s.activeConversation?.id ?? null);
  const last = useStore((s) => s.activeConversation?.messages.at(-1) ?? null);
  const streaming = useStore((s) => (s.streaming && s.streaming.conversationId === s.activeConversation?.id ? (s.streaming.stopping ? 'Stopping…' : 'Answering…') : null));
  const [said, setSaid] = useState('');
  // The conversation an answer was asked in: the question is its last turn until the answer comes.
  const awaited = useRef<string | null>(null);
  const shown = useRef<string | null>(null);
  useEffect(() => {
    const opened = shown.current !== conversationId;
    shown.current = conversationId;
    if (streaming && conversationId) {
      awaited.current = conversationId;
      setSaid(streaming);
      return;
    }
    if (opened && awaited.current !== conversationId) {
      // Another conversation was opened (or another library): its turns are not news, nor is the
      // last answer said here once the transcript it belongs to is gone.
      awaited.current = null;
      setSaid('');
    } else if (awaited.current === conversationId && last?.role === 'assistant') {
      awaited.current = null;
      setSaid(answerSpoken(last));
    }
  }, [streaming, conversationId, last]);
  return (
    <p role="status" className="visually-hidden" data-testid="answer-status">
      {said}
    </p>
  );
}

/**
 * The model the empty chat's example names: the one most of the library's ready documents name
 * (the first in model order on a tie), so the example is one this library can answer; null when
 * no document names a model.
 */
function exampleModel(documents: DocumentSummary[]): string | null {
  const counts = new Map<string, number>();
  for (const d of documents) if (d.status === 'ready') for (const m of new Set(d.models)) counts.set(m, (counts.get(m) ?? 0) + 1);
  const ranked = [...counts].sort(([a, n], [b, k]) => k - n || a.localeCompare(b, undefined, { numeric: true }));
  return ranked[0]?.[0] ?? null;
}

function ChatEmpty({ error }: { error: string | null }) {
  const readyDocs = useStore((s) => s.documents.filter((d) => d.status === 'ready').length);
  const model = useStore((s) => exampleModel(s.documents));
  const chatModel = useStore((s) => s.appSettings?.chatModel ?? null);
  const hasLlm = useStore((s) => s.models.some((m) => m.kinds.includes('llm')));
  const library = useStore((s) => s.selectedLibrary);
  return (
    <div className="chat-empty" data-testid="chat-empty">
      <h2>Ask {library ?? 'your manuals'}</h2>
      {readyDocs === 0 ? (
        <p>
          There is nothing to ask yet: drag manuals onto this window first. Once a document shows <span className="status status-ready">Ready</span>, its
          text can answer questions.
        </p>
      ) : (
        <p data-testid="chat-example">
          {model
            ? `Name the model when you can (“What power supply does the ${model} need?”): the answer then comes from that model’s manual, not a sibling’s.`
            : 'Name the model in your question when you can: the answer then comes from that model’s manual, not a sibling’s.'}
        </p>
      )}
      {!chatModel ? (
        <div className="notice" data-testid="no-llm-notice">
          <strong>Answers are extracted, not written.</strong>
          <p>
            {hasLlm ? 'No language model is chosen for chat' : 'No language model is installed'}, so each answer quotes the most relevant passages of your
            manuals word for word, each with its source and page. {hasLlm ? 'Choose one in Settings' : 'Put a GGUF model in the models folder (see Settings)'} to get
            written answers; they cite the same passages.
          </p>
        </div>
      ) : null}
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function Question({ turn }: { turn: ChatTurn }) {
  return (
    <div className="question" data-testid="question">
      <p>{turn.text}</p>
    </div>
  );
}

/**
 * Extracted answers carry the engine's label line for plain-text surfaces (CLI, export), after any
 * note that comes first ("Read as: ...", "Kept ROCK 5B from the previous question ..."); here the
 * badge says it, so the line is not repeated, wherever it stands.
 */
const answerText = withoutExtractedLabel;

/** What an answer stopped before its first word says in place of its text. */
const STOPPED_EMPTY = 'Stopped before any answer was written.';

/**
 * True for an answer stopped before the model wrote a word, as stored by versions before the engine
 * returned `cancelled` for this: the engine now keeps nothing of such a question (it goes back in
 * the box), so only conversations stored earlier hold such turns, and they still read as stopped.
 */
const stoppedEmpty = (turn: ChatTurn): boolean => turn.stopped === true && answerText(turn.text).trim() === '';

/** `choices`: the candidates of a question back still open (the last turn's), one button each. */
function Answer({ turn, choices }: { turn: ChatTurn; choices: ModelChoice[] }) {
  const citations = turn.citations ?? [];
  const byN = useMemo(() => new Map<number, Citation>(citations.map((c) => [c.n, c])), [citations]);
  const components = useMemo(
    () => ({
      cite: (props: ComponentProps<'cite'>) => {
        const attrs = props as Record<string, unknown>;
        const n = Number(attrs['data-n']);
        // An extracted answer's line is quoted from the passage: the viewer marks it there. A written
        // answer's sentence says it in other words, so its chip opens the passage as a whole.
        const line = turn.mode === 'extracted' && typeof attrs['data-line'] === 'string' ? attrs['data-line'] : undefined;
        return <CitationChip n={n} citation={byN.get(n)} line={line || undefined} />;
      },
    }),
    [byN, turn.mode],
  );
  // An extracted answer quotes the manuals: inline Markdown in a quote is shown as written.
  const plugins = useMemo(() => (turn.mode === 'extracted' ? [remarkInlineAsText, remarkLineEndCitations] : [remarkCitations]), [turn.mode]);
  const models = answerModels(turn);
  const withoutManual = modelsWithoutManual(turn);
  return (
    <article className={`answer answer-${turn.mode ?? 'generated'}`} data-testid="answer" data-mode={turn.mode ?? 'generated'}>
      <div className="answer-meta">
        {turn.mode === 'extracted' ? (
          <span className="badge badge-extracted" title="No language model wrote this: it quotes your manuals word for word." data-testid="extracted-label">
            Extracted from your manuals
          </span>
        ) : turn.mode === 'not-found' ? (
          <span className="badge badge-warn">Not found in this library</span>
        ) : (
          <span className="badge">Written answer</span>
        )}
        {models?.kind === 'models' ? (
          <span className="resolved" data-testid="resolved-models">
            For model{models.models.length > 1 ? 's' : ''}:{' '}
            {models.models.map((m) => (
              <span key={m} className="chip chip-static chip-model">
                {m}
              </span>
            ))}
          </span>
        ) : models?.kind === 'any' ? (
          <span className="resolved muted small" data-testid="any-model" title="Name a model in the question, or pick its chip below, to answer from its manual only.">
            From any model’s manual
          </span>
        ) : null}
        {withoutManual.length > 0 ? (
          <span className="resolved muted small" data-testid="unknown-models">
            No manual for {listed(withoutManual)}
          </span>
        ) : null}
        {turn.stopped ? <span className="badge badge-warn">Stopped</span> : null}
      </div>
      <div className="markdown answer-text">
        {stoppedEmpty(turn) ? (
          <p className="muted" data-testid="stopped-empty">
            {STOPPED_EMPTY}
          </p>
        ) : (
          <SafeMarkdown text={answerText(turn.text)} plugins={plugins} components={components} />
        )}
      </div>
      {citations.length > 0 ? <Sources citations={citations} /> : null}
      {choices.map((c) => (
        <ModelChoiceButtons key={c.name} choice={c} />
      ))}
    </article>
  );
}

/**
 * One button per candidate of a question back: pressing one answers the earlier question for that
 * model (its chip in the composer is picked, so the scope shown is the one used). Names are text,
 * as the library wrote them.
 */
function ModelChoiceButtons({ choice }: { choice: ModelChoice }) {
  const answerFor = useStore((s) => s.answerFor);
  return (
    <div className="model-choices" role="group" aria-label={`Which model for ${choice.name}`} data-testid="model-choices">
      <span className="muted small">Answer for:</span>
      {choice.models.map((m) => (
        <button
          key={m}
          type="button"
          className="chip"
          // Named for what it does: the composer's model chips are buttons of the same names, which
          // only pick a scope; in a screen reader's list of buttons the two read alike.
          aria-label={`Answer for ${m}`}
          onClick={() => {
            // The buttons go with the reply; the question box is where a keyboard user goes next.
            focusQuestion();
            void answerFor(m);
          }}
        >
          {m}
        </button>
      ))}
    </div>
  );
}

/** The answer's sources: document (title and file, since sibling manuals share titles), model, section and page for each [n]. */
function Sources({ citations }: { citations: Citation[] }) {
  const titles = useStore(useShallow((s) => citations.map((c) => s.documents.find((d) => d.id === c.doc)?.title ?? c.doc)));
  return (
    <ol className="sources" aria-label="Sources">
      {citations.map((c, i) => (
        <li key={`${c.n}-${c.chunkId}`}>
          <CitationChip n={c.n} citation={c} />
          <span className="source-title">{titles[i]}</span>
          <span className="muted small source-doc" data-testid="source-doc">
            {c.doc}
            {c.model ? ` · model ${c.model}` : ''}
          </span>
          <span className="muted small">{[c.headingPath.slice(-1)[0], formatPages(c.pages)].filter((x) => x && x !== titles[i]).join(' · ')}</span>
        </li>
      ))}
    </ol>
  );
}

/** Said by the box when a question is sent while another is on its way: it stays in the box. */
const HELD = 'The previous question is still on its way, so this one stays in the box: ask it once that answer is done, or stop it (Esc).';

function Composer() {
  // From the press that sends a question (its scope saved, its conversation created) until it is
  // answered: the answer streams only after the first part, and a send meanwhile would be refused.
  const busy = useStore((s) => s.pending !== null || s.streaming !== null);
  const stopping = useStore((s) => (s.streaming?.stopping ?? false) || (s.pending?.stopping ?? false));
  const ask = useStore((s) => s.ask);
  const stop = useStore((s) => s.stop);
  const note = useStore((s) => s.chatNote);
  const library = useStore((s) => s.selectedLibrary);
  const text = useStore((s) => s.questionDraft);
  const setText = useStore((s) => s.setQuestionDraft);
  // True after a send (Enter) while another question was on its way, until that one is done.
  const [held, setHeld] = useState(false);
  useEffect(() => {
    if (!busy) setHeld(false);
  }, [busy]);
  const send = () => {
    if (!text.trim()) return;
    if (busy) {
      // Not queued: the engine answers one question at a time, and a queued one would be sent with
      // whatever conversation and model chips are open when the answer ends, often after the user
      // has read it and would word the next question otherwise. As in the chat apps people know,
      // the text stays in the box (never cleared to come back), and the line below says why.
      setHeld(true);
      return;
    }
    const question = text;
    setText('');
    // A question not sent or not answered comes back to the box (the store puts it there).
    void ask(question);
  };
  const nearLimit = text.length >= MAX_QUESTION_CHARS * 0.9;
  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <ModelChips scope="chat" />
      <UnsentQuestions />
      <div className="composer-row">
        <label htmlFor="question" className="visually-hidden">
          Question
        </label>
        <textarea
          id="question"
          data-testid="question-input"
          rows={2}
          maxLength={MAX_QUESTION_CHARS}
          aria-describedby={nearLimit ? 'question-count' : undefined}
          value={text}
          disabled={!library}
          placeholder="Ask about a model… (Enter to send, Shift+Enter for a new line)"
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              send();
            }
          }}
        />
        {nearLimit ? (
          <span id="question-count" className={text.length > MAX_QUESTION_CHARS ? 'char-count error' : 'char-count muted small'} data-testid="question-count">
            {text.length} / {MAX_QUESTION_CHARS}
          </span>
        ) : null}
        {busy ? (
          <button type="button" className="btn btn-danger" onClick={() => void stop()} disabled={stopping} data-testid="stop" title="Stop (Esc)">
            <Icon name="stop" /> Stop
          </button>
        ) : (
          <button type="submit" className="btn btn-primary" disabled={!text.trim()} data-testid="send">
            <Icon name="send" /> Ask
          </button>
        )}
      </div>
      {/* In the page from the start, so screen readers say what is put in it; polite: nothing failed. */}
      <p role="status" className="muted small composer-note" data-testid="composer-note">
        {held && busy ? HELD : (note ?? '')}
      </p>
    </form>
  );
}
