import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';

/**
 * A real S3 server for the team-library tests: moto's server (`moto_server`, Python), which
 * enforces the conditional write (`If-None-Match: *`) publishing relies on. Bound to 127.0.0.1 on
 * a free port; its data lives in memory and is gone when it stops. MOTO_SERVER names another
 * executable. Missing, it fails the test with a sentence saying what to install; never a skip.
 */
export interface MotoServer {
  endpoint: string;
  port: number;
  /** The AWS variables a CLI process needs to reach it (test keys; moto accepts any). */
  env: Record<string, string>;
  client: S3Client;
  createBucket(name: string): Promise<void>;
  stop(): Promise<void>;
}

const MOTO = process.env['MOTO_SERVER'] ?? 'moto_server';
// The SDK's notice that its 2027 releases need Node 22 is noise in test output.
process.env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] ??= 'true';

export const MISSING_MOTO = `The S3 tests need moto's server (${MOTO}) on PATH: install it with pip install "moto[server]" (these machines' Python has it; .ci/run checks).`;

/** A port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/** Starts moto_server on 127.0.0.1 (a free port, or `port`) and waits until it accepts connections. */
export async function startMoto(port?: number): Promise<MotoServer> {
  const p = port ?? (await freePort());
  const child: ChildProcess = spawn(MOTO, ['-H', '127.0.0.1', '-p', String(p)], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const spawnError = new Promise<Error>((resolve) => child.on('error', resolve));
  const deadline = Date.now() + 30_000;
  for (;;) {
    const state = await Promise.race([spawnError.then((e) => e), exited.then((c) => c), new Promise((r) => setTimeout(() => r('waiting'), 100))]);
    if (state instanceof Error) throw new Error((state as NodeJS.ErrnoException).code === 'ENOENT' ? MISSING_MOTO : `${MOTO} could not start: ${state.message}`);
    if (state !== 'waiting') throw new Error(`${MOTO} exited (${String(state)}) before it served: ${stderr.trim()}`);
    if (await answers(p)) break;
    if (Date.now() > deadline) {
      process.kill(-child.pid!, 'SIGKILL');
      throw new Error(`${MOTO} did not answer on 127.0.0.1:${p} within 30 s: ${stderr.trim()}`);
    }
  }
  const endpoint = `http://127.0.0.1:${p}`;
  const env = { AWS_ENDPOINT_URL: endpoint, AWS_ACCESS_KEY_ID: 'testing', AWS_SECRET_ACCESS_KEY: 'testing', AWS_REGION: 'us-east-1' };
  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' } });
  let stopped = false;
  return {
    endpoint,
    port: p,
    env,
    client,
    async createBucket(name) {
      await client.send(new CreateBucketCommand({ Bucket: name }));
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      client.destroy();
      // Its own process group (detached): the server and any worker it started, nothing else.
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        return;
      }
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    },
  };
}
