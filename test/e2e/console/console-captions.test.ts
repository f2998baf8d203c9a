import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DubbingClient } from '../../../src/client/dubbing.js';
import { LiveClient } from '../../../src/client/live.js';
import type { RunningServer } from '../../../src/server/app.js';
import { browserAvailable, launchBrowser } from '../../helpers/browser.js';
import { startTestServer, TEST_API_KEY } from '../../helpers/server.js';
import { hlsConfig } from '../live/fixtures.js';
import { startOrigin, type LiveOrigin } from '../live/hls-origin.js';
import { stubDubbingEnv } from '../dubbing/harness.js';
import { mp4File, startMediaServer, type MediaServer } from '../dubbing/media-fixtures.js';

interface Cue {
  seq: number;
  start: number;
  end: number;
  text: string;
}

describe.runIf(browserAvailable())('web console: live captions and resource lists in headless Chromium', () => {
  let server: RunningServer;
  let origin: LiveOrigin;
  let browser: Browser;
  let page: Page;
  let serviceId: number;
  let media: MediaServer;
  let requestId: string;

  beforeAll(async () => {
    origin = await startOrigin();
    origin.publish(3);
    media = await startMediaServer({ '/media/ep1.mp4': mp4File(4000) });
    stubDubbingEnv(media.url, 0);
    server = await startTestServer();
    const dubbing = new DubbingClient({ baseUrl: server.url, apiKey: TEST_API_KEY });
    ({ requestId } = await dubbing.create({
      sourceLocale: 'en-US',
      targetLocale: 'es-ES',
      sourceVideoPath: 's3://media/ep1.mp4',
      segments: [{ timestampStart: 0, timestampEnd: 1500, characterId: 'c1', characterName: 'Ana', sourceDialogue: 'Hi.', targetDialogue: 'Hola.' }],
      additionalProducts: [{ product: 'SRT', assetPath: 's3://out/ep1.srt' }],
    }));
    await dubbing.waitFor(requestId, { pollIntervalMs: 50, timeoutMs: 20_000 });
    const live = new LiveClient({ baseUrl: server.url, apiKey: TEST_API_KEY });
    serviceId = (await live.createService(hlsConfig(origin.masterUrl, 'console-news'))).id;
    await live.start(serviceId);
    browser = await launchBrowser();
    page = await browser.newPage();
    await page.goto(`${server.url}/#key=${TEST_API_KEY}`);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await origin?.close();
    await media?.close();
    vi.unstubAllEnvs();
  });

  it('follows a service captions socket: cues appear in order, once each', async () => {
    await page.fill('#caption-service', String(serviceId));
    await page.fill('#caption-lang', 'en-US');
    await page.click('#captions-follow');
    await page.waitForFunction(() => (window as unknown as { voxpipeConsole: { cues: Cue[] } }).voxpipeConsole.cues.length >= 3, undefined, { timeout: 20_000 });
    origin.publish(5);
    await page.waitForFunction(() => (window as unknown as { voxpipeConsole: { cues: Cue[] } }).voxpipeConsole.cues.some((c) => c.text === 'line 5'), undefined, { timeout: 20_000 });
    const cues = await page.evaluate(() => (window as unknown as { voxpipeConsole: { cues: Cue[] } }).voxpipeConsole.cues);
    expect(cues.map((c) => c.text)).toEqual(cues.map((_, i) => `line ${i}`));
    expect(new Set(cues.map((c) => c.seq)).size).toBe(cues.length);
    const shown = await page.$$eval('#cues li', (items) => items.map((li) => li.textContent ?? ''));
    expect(shown.some((line) => line.includes('line 0'))).toBe(true);
  });

  it('lists dubbing jobs and live services with their states', async () => {
    await page.click('#refresh');
    await page.waitForFunction(() => document.querySelectorAll('#services tbody tr').length > 0, undefined, { timeout: 10_000 });
    const rows = await page.$$eval('#services tbody tr', (trs) => trs.map((tr) => tr.textContent ?? ''));
    expect(rows.some((r) => r.includes('console-news') && r.includes('running'))).toBe(true);
    const jobs = await page.$$eval('#jobs tbody tr', (trs) => trs.map((tr) => tr.textContent ?? ''));
    expect(jobs.some((r) => r.includes(requestId) && r.includes('DELIVERED_TO_CLIENT') && r.includes('SRT:DELIVERED'))).toBe(true);
  });
});
