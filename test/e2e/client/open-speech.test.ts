/** OpenSpeechClient against the reference server's `/open` socket. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenSpeechClient } from '../../../src/client/speech/open-client.js';
import type { RunningServer } from '../../../src/server/app.js';
import { TEST_API_KEY, startTestServer, wsBase } from '../../helpers/server.js';
import { codeOf, collect } from '../../unit/client/test-utils.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe('OpenSpeechClient', () => {
  it('speaks complete texts, several at once on one socket, each in order and measured', async () => {
    const client = new OpenSpeechClient({ baseUrl: wsBase(server), apiKey: TEST_API_KEY });
    try {
      const requests = ['First request.', 'Second one, a little longer than the first.', 'Third.'].map((text) =>
        client.speak({ text, model: 'dd-etts-3.3', format: 's16le', sampleRate: 16000 }),
      );
      const audio = await Promise.all(requests.map((r) => collect(r.audio())));
      const results = await Promise.all(requests.map((r) => r.done));
      for (const [i, chunks] of audio.entries()) {
        const result = results[i];
        expect(chunks.every((c) => c.generationId === requests[i]?.generationId)).toBe(true);
        expect(chunks.map((c) => c.index)).toEqual(chunks.map((_, j) => j));
        expect(chunks.at(-1)?.isFinished).toBe(true);
        expect(chunks.filter((c) => c.isFinished)).toHaveLength(1);
        const bytes = chunks.reduce((n, c) => n + c.data.length, 0);
        expect(result?.audioBytes).toBe(bytes);
        expect(result?.audioMs).toBeCloseTo(bytes / 32, 6);
        expect(result?.ttfaMs).toBeGreaterThan(0);
      }
      expect(results[1]?.audioMs).toBeGreaterThan(results[2]?.audioMs ?? Infinity);
      expect(client.inFlight).toBe(0);
    } finally {
      await client.close();
    }
  });

  it('maps failures to typed errors and keeps the socket usable', async () => {
    const client = new OpenSpeechClient({ baseUrl: wsBase(server), apiKey: TEST_API_KEY, auth: 'query' });
    try {
      expect(await codeOf(client.speak({ text: 'Hi.', model: 'no-such-model' }).done)).toBe('bad_request');
      expect(await codeOf(client.speak({ text: 'x'.repeat(10_001), model: 'dd-etts-3.3' }).done)).toBe('rate_limited');
      const ok = client.speak({ text: 'Still fine.', model: 'dd-etts-3.3' });
      expect((await collect(ok.audio())).at(-1)?.isFinished).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('stops delivering a request whose signal aborts, and refuses a bad key', async () => {
    const client = new OpenSpeechClient({ baseUrl: wsBase(server), apiKey: TEST_API_KEY });
    try {
      const controller = new AbortController();
      const request = client.speak({ text: 'A long text to be interrupted. '.repeat(20), model: 'dd-etts-3.3', signal: controller.signal });
      let after = 0;
      let aborted = false;
      for await (const _ of request.audio()) {
        if (aborted) after++;
        controller.abort();
        aborted = true;
      }
      expect(after).toBe(0);
      await request.done;
    } finally {
      await client.close();
    }
    const bad = new OpenSpeechClient({ baseUrl: wsBase(server), apiKey: 'dd-00000000000000000000000000000000' });
    expect(await codeOf(bad.speak({ text: 'x', model: 'dd-etts-3.3' }).done)).toBe('unauthorized');
    await bad.close();
  });
});
