import type { AppError } from '../contract/api';
import type { EngineDoor } from '../engine/engine';
import type { CliIo } from './main';

/**
 * `manualmate publish | subscribe | sync`: team libraries on object storage, through the contract
 * like every command. Exit codes as elsewhere: 0 done, 1 the work failed (offline, refused, busy),
 * 2 usage or input the contract refuses.
 */
export async function runTeamCommand(
  command: 'publish' | 'subscribe' | 'sync',
  engine: EngineDoor,
  library: string,
  values: Record<string, unknown>,
  positionals: string[],
  json: boolean,
  io: CliIo,
): Promise<number> {
  const failed = (error: AppError) => {
    io.stderr.write(`manualmate ${command}: ${error.message}\n`);
    return error.code === 'invalid-input' ? 2 : 1;
  };
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  if (command === 'publish') {
    const to = values['to'];
    if (typeof to !== 'string' || to.trim() === '') {
      io.stderr.write('manualmate publish: this command needs --to s3://bucket/prefix.\nRun "manualmate --help" for usage.\n');
      return 2;
    }
    const res = await engine.api['libraries.publish']({ library, to });
    if (!res.ok) return failed(res.error);
    const p = res.value;
    if (json) io.stdout.write(`${JSON.stringify(p)}\n`);
    else io.stdout.write(`Published "${p.library}" as version ${p.version} of ${p.destination}: ${p.files} files, ${p.uploadedFiles} uploaded (${mb(p.uploadedBytes)}).\n`);
    return 0;
  }
  const res = command === 'subscribe' ? await engine.api['libraries.subscribe']({ source: positionals[0]!, library }) : await engine.api['libraries.sync']({ library });
  if (!res.ok) return failed(res.error);
  const s = res.value;
  if (json) io.stdout.write(`${JSON.stringify(s)}\n`);
  else if (!s.changed) io.stdout.write(`"${s.library}" is up to date: version ${s.version} of ${s.source}.\n`);
  else {
    const what = command === 'subscribe' ? `Subscribed "${s.library}" to ${s.source}` : `Synced "${s.library}" from version ${s.previousVersion} of ${s.source}`;
    io.stdout.write(`${what}: version ${s.version}, ${s.fetchedFiles} files fetched (${mb(s.fetchedBytes)}), ${s.reusedFiles} kept from the local copy.\n`);
  }
  return 0;
}
