import { useEffect, useState, type FormEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { LibrarySubscription } from '../../../src-main/contract/api';
import { useStore } from '../store';
import { remoteOf } from '../store/team.slice';
import { formatDate } from '../util/format';

/**
 * Settings › Team libraries: where the organisation's object storage is, publishing the selected
 * library to it, subscribing to a published one, and a subscribed library's version and sync.
 */
export function TeamSettings() {
  const remote = useStore(useShallow((s) => remoteOf(s.appSettings)));
  const library = useStore((s) => s.libraries.find((l) => l.name === s.selectedLibrary) ?? null);
  const { teamBusy, teamMessage, teamError } = useStore(useShallow((s) => ({ teamBusy: s.teamBusy, teamMessage: s.teamMessage, teamError: s.teamError })));
  const { saveRemoteSettings, forgetRemoteKeys, publishLibrary, subscribeLibrary } = useStore(
    useShallow((s) => ({ saveRemoteSettings: s.saveRemoteSettings, forgetRemoteKeys: s.forgetRemoteKeys, publishLibrary: s.publishLibrary, subscribeLibrary: s.subscribeLibrary })),
  );
  const [endpoint, setEndpoint] = useState('');
  const [region, setRegion] = useState('');
  const [accessKeyId, setAccessKeyId] = useState('');
  const [secret, setSecret] = useState('');
  const [publishTo, setPublishTo] = useState('');
  const [source, setSource] = useState('');
  const [name, setName] = useState('');
  // The stored settings fill the form once they arrive (and after a save).
  useEffect(() => {
    setEndpoint(remote.endpoint ?? '');
    setRegion(remote.region ?? '');
    setAccessKeyId(remote.accessKeyId ?? '');
  }, [remote.endpoint, remote.region, remote.accessKeyId]);

  const busy = teamBusy !== null;
  const save = (e: FormEvent) => {
    e.preventDefault();
    void saveRemoteSettings({ endpoint, region, accessKeyId, ...(secret ? { secretAccessKey: secret } : {}) }).then(() => setSecret(''));
  };
  const publish = (e: FormEvent) => {
    e.preventDefault();
    if (library) void publishLibrary(library.name, publishTo.trim());
  };
  const subscribe = (e: FormEvent) => {
    e.preventDefault();
    void subscribeLibrary(source.trim(), name.trim());
  };

  return (
    <div className="card" data-testid="team-settings">
      <h3>Team libraries</h3>
      <p className="muted small">
        One place publishes a library to your organisation’s object storage (S3, MinIO, R2, Ceph); every laptop subscribes to it and keeps an offline copy.
        ManualMate connects only for these actions, and to look for new versions of subscribed libraries.
      </p>
      <form className="team-form" onSubmit={save} aria-label="Object storage">
        <div className="field">
          <label htmlFor="remote-endpoint">Endpoint</label>
          <input id="remote-endpoint" value={endpoint} placeholder="https://minio.example:9000 (empty: Amazon S3)" onChange={(e) => setEndpoint(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="remote-region">Region</label>
          <input id="remote-region" value={region} placeholder="us-east-1" onChange={(e) => setRegion(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="remote-key">Access key</label>
          <input id="remote-key" value={accessKeyId} autoComplete="off" onChange={(e) => setAccessKeyId(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="remote-secret">Secret key</label>
          <input
            id="remote-secret"
            type="password"
            value={secret}
            autoComplete="new-password"
            placeholder={remote.secretSet ? 'Stored on this computer; type to replace it' : ''}
            onChange={(e) => setSecret(e.target.value)}
          />
          <p className="muted small">Kept in this computer’s data folder, never in a library. Left empty, the AWS_* environment variables are used.</p>
        </div>
        <div className="rebuild-buttons">
          <button type="submit" className="btn" disabled={busy}>
            {teamBusy === 'save' ? 'Saving…' : 'Save'}
          </button>
          {remote.secretSet || remote.accessKeyId ? (
            <button type="button" className="btn" disabled={busy} onClick={() => void forgetRemoteKeys()}>
              {teamBusy === 'forget' ? 'Forgetting…' : 'Forget the stored keys'}
            </button>
          ) : null}
        </div>
      </form>

      {library?.subscription ? (
        <Subscription library={library.name} subscription={library.subscription} busy={busy} />
      ) : library ? (
        <form className="field" onSubmit={publish} aria-label={`Publish ${library.name}`}>
          <label htmlFor="publish-to">Publish “{library.name}” to</label>
          <input id="publish-to" value={publishTo} placeholder="s3://bucket/prefix" onChange={(e) => setPublishTo(e.target.value)} />
          <p className="muted small">Uploads a new version; only files that changed since the last one are sent.</p>
          <button type="submit" className="btn btn-primary" disabled={busy || publishTo.trim() === ''}>
            {teamBusy === 'publish' ? 'Publishing…' : 'Publish'}
          </button>
        </form>
      ) : null}

      <form className="field" onSubmit={subscribe} aria-label="Subscribe to a team library">
        <span className="field-title">Subscribe to a published library</span>
        <label htmlFor="subscribe-source" className="small">
          Address
        </label>
        <input id="subscribe-source" value={source} placeholder="s3://bucket/prefix" onChange={(e) => setSource(e.target.value)} />
        <label htmlFor="subscribe-name" className="small">
          Name on this computer
        </label>
        <input id="subscribe-name" value={name} placeholder="Team manuals" onChange={(e) => setName(e.target.value)} />
        <p className="muted small">A subscribed library is read-only here: import your own manuals into a separate library.</p>
        <button type="submit" className="btn" disabled={busy || source.trim() === '' || name.trim() === ''}>
          {teamBusy === 'subscribe' ? 'Subscribing…' : 'Subscribe'}
        </button>
      </form>

      {/* In the page before the first outcome (a region added with its text is not read out);
          with none, for screen readers only, so it takes no room. */}
      <p className={teamMessage ? 'small' : 'visually-hidden'} role="status" data-testid="team-message">
        {teamMessage}
      </p>
      {teamError ? (
        <p className="error small" role="alert" data-testid="team-error">
          {teamError}
        </p>
      ) : null}
    </div>
  );
}

/** A subscribed library's version, when it was synced, and whether a newer one is published. */
function Subscription({ library, subscription: sub, busy }: { library: string; subscription: LibrarySubscription; busy: boolean }) {
  const { syncLibrary, checkRemote, teamBusy } = useStore(useShallow((s) => ({ syncLibrary: s.syncLibrary, checkRemote: s.checkRemote, teamBusy: s.teamBusy })));
  return (
    <div className="field" data-testid="subscription-card" role="group" aria-labelledby="subscription-title">
      <span className="field-title" id="subscription-title">
        “{library}” is subscribed from {sub.source}
      </span>
      <p className="small" data-testid="subscription-version">
        Version {sub.version}, published {formatDate(sub.publishedAt)}; synced {formatDate(sub.syncedAt)}.
      </p>
      {sub.newerAvailable ? (
        <p className="warn small" data-testid="newer-version">
          A newer version ({sub.latestVersion}) is available.
        </p>
      ) : null}
      {sub.checkError ? <p className="muted small">Last look at the storage{sub.checkedAt ? ` (${formatDate(sub.checkedAt)})` : ''} failed: {sub.checkError}</p> : null}
      <div className="rebuild-buttons">
        <button type="button" className={sub.newerAvailable ? 'btn btn-primary' : 'btn'} disabled={busy} onClick={() => void syncLibrary(library)}>
          {teamBusy === 'sync' ? 'Syncing…' : 'Sync now'}
        </button>
        <button type="button" className="btn" disabled={busy} onClick={() => void checkRemote(library)}>
          {teamBusy === 'check' ? 'Looking…' : 'Look for a newer version'}
        </button>
      </div>
    </div>
  );
}
