import path from 'node:path';
import type { AppSettings } from '../contract/api';
import { readJson, writeJsonAtomic } from '../storage/atomic-file';

/** App-wide settings in `<dataDir>/settings.json` (written atomically); libraries keep their own. */
export class SettingsStore {
  private cached: AppSettings | null = null;

  constructor(private readonly dataDir: string) {}

  private get file(): string {
    return path.join(this.dataDir, 'settings.json');
  }

  async get(): Promise<AppSettings> {
    if (!this.cached) {
      const stored = await readJson<Partial<AppSettings> | null>(this.file, null).catch(() => null);
      this.cached = { chatModel: typeof stored?.chatModel === 'string' ? stored.chatModel : null };
    }
    return this.cached;
  }

  async update(patch: Partial<AppSettings>): Promise<AppSettings> {
    const next = { ...(await this.get()), ...patch };
    await writeJsonAtomic(this.file, next);
    this.cached = next;
    return next;
  }
}
