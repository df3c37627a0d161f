import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { RemoteSettingsView } from '../contract/api';
import { readJson, tempName } from '../storage/atomic-file';
import type { RemoteSettings } from '../storage/remote/location';

/**
 * The object-storage settings of this computer (endpoint, region, access key) in
 * `<dataDir>/remote.json`, readable by its owner only (it holds a secret key), never in a library
 * folder. The UI gets them without the secret (`view`).
 */
export class RemoteSettingsStore {
  private cached: RemoteSettings | null = null;

  constructor(private readonly dataDir: string) {}

  private get file(): string {
    return path.join(this.dataDir, 'remote.json');
  }

  /** The stored settings, secret included (engine use only). */
  async get(): Promise<RemoteSettings> {
    if (!this.cached) {
      const stored = await readJson<Partial<RemoteSettings> | null>(this.file, null).catch(() => null);
      const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
      this.cached = {
        endpoint: text(stored?.endpoint),
        region: text(stored?.region),
        accessKeyId: text(stored?.accessKeyId),
        secretAccessKey: text(stored?.secretAccessKey),
      };
    }
    return this.cached;
  }

  /** What the UI may see: everything but the secret, which is only said to be set. */
  async view(): Promise<RemoteSettingsView> {
    const s = await this.get();
    return { endpoint: s.endpoint, region: s.region, accessKeyId: s.accessKeyId, secretSet: s.secretAccessKey !== null };
  }

  /** Saves the settings; `secretAccessKey` undefined keeps the stored secret. */
  async update(next: Omit<RemoteSettings, 'secretAccessKey'> & { secretAccessKey?: string | null }): Promise<RemoteSettingsView> {
    const current = await this.get();
    const saved: RemoteSettings = { ...next, secretAccessKey: next.secretAccessKey === undefined ? current.secretAccessKey : next.secretAccessKey };
    await fs.mkdir(this.dataDir, { recursive: true });
    // Written as temp file + rename like every settings file, but created owner-only (0600) so
    // the secret is never readable by other users, not even for a moment.
    const tmp = path.join(this.dataDir, tempName('remote.json'));
    await fs.writeFile(tmp, `${JSON.stringify(saved, null, 2)}\n`, { mode: 0o600 });
    await fs.rename(tmp, this.file);
    this.cached = saved;
    return this.view();
  }
}
