import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/app.js';
import { browserAvailable, launchBrowser } from '../../helpers/browser.js';
import { startTestServer, TEST_API_KEY } from '../../helpers/server.js';

interface ConsoleState {
  connected: boolean;
  ttfaMs: number | null;
  chunks: number;
  audioBytes: number;
  audioMs: number;
  finals: number;
  errors: string[];
}

describe.runIf(browserAvailable())('web console in headless Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    page = await browser.newPage();
    await page.goto(`${server.url}/#key=${TEST_API_KEY}`);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const consoleState = () => page.evaluate(() => (window as unknown as { voxpipeConsole: ConsoleState }).voxpipeConsole);

  it('loads, takes the key from the URL fragment and lists the models and voices', async () => {
    await expect(page.title()).resolves.toBe('voxpipe console');
    await page.waitForFunction(() => (document.getElementById('model') as HTMLSelectElement).options.length > 0);
    const models = await page.$$eval('#model option', (options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(models).toContain('dd-etts-3.3');
    expect(await page.$$eval('#voice option', (o) => o.length)).toBeGreaterThanOrEqual(2);
    expect(page.url()).not.toContain(TEST_API_KEY); // the key is moved out of the address bar
  });

  it('speaks a phrase: audio streams in, plays, and time to first audio is shown', async () => {
    await page.fill('#text', 'Hello from the browser console. This is a test.');
    await page.selectOption('#format', 's16le');
    await page.selectOption('#sample-rate', '24000');
    await page.click('#speak');
    await page.waitForFunction(() => (window as unknown as { voxpipeConsole: ConsoleState }).voxpipeConsole.finals >= 1, undefined, { timeout: 20_000 });
    const s = await consoleState();
    expect(s.errors).toEqual([]);
    expect(s.connected).toBe(true);
    expect(s.chunks).toBeGreaterThan(0);
    expect(s.ttfaMs).not.toBeNull();
    // 24 kHz s16le: 48 bytes per millisecond; the phrase is well over half a second of speech.
    expect(s.audioBytes).toBeGreaterThan(48 * 500);
    expect(Math.abs(s.audioMs - s.audioBytes / 48)).toBeLessThan(1);
    expect(await page.textContent('#ttfa')).toMatch(/^\d+ ms$/);
    const log = await page.$$eval('#messages li', (items) => items.map((li) => li.textContent ?? ''));
    expect(log.some((line) => line.includes('isFinal'))).toBe(true);
  });

  it('speaks again on the same session (multi-turn) with wav chunks', async () => {
    await page.selectOption('#format', 'wav');
    await page.click('#speak');
    await page.waitForFunction(() => (window as unknown as { voxpipeConsole: ConsoleState }).voxpipeConsole.finals >= 2, undefined, { timeout: 20_000 });
    const s = await consoleState();
    expect(s.errors).toEqual([]);
    expect(s.audioMs).toBeGreaterThan(500);
  });
});
