import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startWebBridge, type WebBridge } from '../../src-main/bridge/web-bridge';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { tempDir } from '../helpers/temp';

/**
 * The web bridge hands API calls to the engine in the order they arrived, whatever order their
 * bodies come in: each call is its own HTTP request, and a page's `chat.stop` right after its
 * `chat.ask` must find the question as it does over IPC. Real HTTP, real bridge, real engine.
 *
 * `Expect: 100-continue` is how a test knows the bridge has a request before sending its body:
 * node's server writes "100 Continue" and runs the request handler in the same tick, so once the
 * client sees the 100, the call has its place in the order.
 */

let tmp: { dir: string; cleanup: () => Promise<void> };
let engine: Engine;
let bridge: WebBridge;

beforeAll(async () => {
  tmp = await tempDir();
  engine = createEngine({ dataDir: path.join(tmp.dir, 'data'), bundledModelsDir: path.join(tmp.dir, 'none'), threads: 1, log: () => undefined });
  const manual = path.join(tmp.dir, 'p-200.md');
  await writeFile(manual, '# P-200 pump service manual\n\n## Fuses\n\nThe P-200 takes a 10 A slow-blow fuse.\n');
  const imported = await engine.importPaths('Pumps', [manual]);
  if (!imported.ok || imported.value.summary.imported !== 1) throw new Error('import failed');
  await engine.idle();
  // Longer than any test here waits: a turn that was not given back shows as a timeout.
  bridge = await startWebBridge({ handlers: engine.handlers, subscribe: engine.subscribe, rendererDir: null, turnWaitMs: 60_000 });
});

afterAll(async () => {
  await bridge?.close();
  await engine?.dispose();
  await tmp?.cleanup();
});

interface Call {
  /** Settles once the bridge has the request's headers (its "100 Continue"). */
  arrived: Promise<void>;
  /** Sends the body and ends the request. */
  send(body: unknown): void;
  /** The bridge's answer: status and parsed JSON. */
  answer: Promise<{ status: number; json: unknown }>;
  /** Whether the answer has come. */
  answered(): boolean;
}

/** A POST to `/api/<key>` whose headers go out now and whose body goes out when the test says. */
function open(key: string, target: WebBridge = bridge): Call {
  let answered = false;
  const req = http.request({
    host: '127.0.0.1',
    port: target.port,
    path: `/api/${key}`,
    method: 'POST',
    headers: { host: `127.0.0.1:${target.port}`, authorization: `Bearer ${target.token}`, 'content-type': 'application/json', expect: '100-continue' },
  });
  const arrived = new Promise<void>((resolve, reject) => {
    req.once('continue', () => resolve());
    req.once('error', reject);
  });
  const answer = new Promise<{ status: number; json: unknown }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        answered = true;
        resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) as unknown });
      });
    });
    req.on('error', reject);
  });
  req.flushHeaders();
  return { arrived, answer, answered: () => answered, send: (body) => req.end(typeof body === 'string' ? body : JSON.stringify(body)) };
}

/** Resolves after `ms`, or as soon as `call` is answered. */
async function answeredWithin(call: Call, ms: number): Promise<boolean> {
  await Promise.race([call.answer, new Promise((r) => setTimeout(r, ms))]);
  return call.answered();
}

async function conversation(): Promise<string> {
  const created = await engine.api['chat.create']({ library: 'Pumps' });
  if (!created.ok) throw new Error(created.error.message);
  return created.value.id;
}

describe('web bridge call order', () => {
  it('stops a question whose body comes in after the stop: the ask is cancelled, the stop says stopped', async () => {
    const id = await conversation();
    const ask = open('chat.ask');
    await ask.arrived;
    const stop = open('chat.stop');
    await stop.arrived;
    stop.send({ library: 'Pumps', id });
    // The stop's whole body is in, the ask's is not. Time enough for a stop dispatched at once to be
    // answered (it was, `stopped: false`, before calls took turns); it must wait for the ask instead.
    await answeredWithin(stop, 300);
    ask.send({ library: 'Pumps', id, question: 'Which fuse does the P-200 take?' });
    expect(await stop.answer).toEqual({ status: 200, json: { ok: true, value: { stopped: true } } });
    expect(await ask.answer).toMatchObject({ status: 200, json: { ok: false, error: { code: 'cancelled' } } });
    const conv = await engine.api['chat.get']({ library: 'Pumps', id });
    expect(conv.ok && conv.value.messages.length).toBe(0);
  });

  it('answers the same question in full when no stop follows it (the question is answerable)', async () => {
    const id = await conversation();
    const ask = open('chat.ask');
    await ask.arrived;
    ask.send({ library: 'Pumps', id, question: 'Which fuse does the P-200 take?' });
    expect(await ask.answer).toMatchObject({ status: 200, json: { ok: true, value: { mode: 'extracted' } } });
  });

  it('lets later calls go once an earlier call is dispatched, not once it completes', async () => {
    const id = await conversation();
    const ask = open('chat.ask');
    await ask.arrived;
    ask.send({ library: 'Pumps', id, question: 'Which fuse does the P-200 take?' });
    // Sent while the ask may still be answering; answered whatever the ask's state.
    const list = open('libraries.list');
    await list.arrived;
    list.send({});
    expect(await list.answer).toMatchObject({ status: 200, json: { ok: true } });
    expect(await ask.answer).toMatchObject({ status: 200, json: { ok: true } });
  });

  it('gives the turn back when an earlier body is refused: not JSON, or over the size limit', async () => {
    for (const bad of ['{nope', JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) })]) {
      const first = open('libraries.list');
      await first.arrived;
      const second = open('libraries.list');
      await second.arrived;
      second.send({});
      expect(await answeredWithin(second, 100)).toBe(false);
      first.send(bad);
      expect((await first.answer).status).toBe(400);
      expect(await second.answer).toMatchObject({ status: 200, json: { ok: true } });
    }
  });

  it('stops waiting for a body that does not come in: later calls go ahead after the turn wait', async () => {
    const quick = await startWebBridge({ handlers: engine.handlers, subscribe: engine.subscribe, rendererDir: null, turnWaitMs: 200 });
    try {
      const stalled = open('libraries.list', quick);
      await stalled.arrived;
      const next = open('libraries.list', quick);
      await next.arrived;
      next.send({});
      expect(await next.answer).toMatchObject({ status: 200, json: { ok: true } });
      expect(stalled.answered()).toBe(false);
      // The stalled call is still served when its body comes.
      stalled.send({});
      expect(await stalled.answer).toMatchObject({ status: 200, json: { ok: true } });
    } finally {
      await quick.close();
    }
  });
});
