/**
 * Token sources for the examples: an OpenAI-compatible streaming chat client (used when an API key is
 * configured) and a scripted streamer that behaves like an LLM (first-token delay, small uneven tokens,
 * inline tags) so every example runs offline.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { sleep as delay } from '../../src/client/http.js';

/** One chat message. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Options of {@link openAiChatTokens}. */
export interface OpenAiChatOptions {
  /** e.g. `https://api.openai.com/v1` or any OpenAI-compatible server. */
  baseUrl: string;
  apiKey: string;
  model: string;
  messages: ChatMessage[];
  signal?: AbortSignal;
}

/** Streams the assistant's reply as text deltas from an OpenAI-compatible `/chat/completions` endpoint. */
export async function* openAiChatTokens(options: OpenAiChatOptions): AsyncIterable<string> {
  const res = await fetch(`${options.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${options.apiKey}` },
    body: JSON.stringify({ model: options.model, messages: options.messages, stream: true }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (!res.ok || !res.body) throw new Error(`LLM request failed: HTTP ${res.status} ${await res.text().catch(() => '')}`);
  const pending: string[] = [];
  let done = false;
  const parser = createParser({
    onEvent(event: EventSourceMessage) {
      if (event.data === '[DONE]') {
        done = true;
        return;
      }
      const chunk = JSON.parse(event.data) as { choices?: Array<{ delta?: { content?: string } }> };
      const delta = chunk.choices?.[0]?.delta?.content;
      if (delta) pending.push(delta);
    },
  });
  const decoder = new TextDecoder();
  for await (const bytes of res.body as unknown as AsyncIterable<Uint8Array>) {
    parser.feed(decoder.decode(bytes, { stream: true }));
    while (pending.length > 0) yield pending.shift() as string;
    if (done) return;
  }
}

/** Options of {@link scriptedTokens}. */
export interface ScriptedTokenOptions {
  /** Delay before the first token (an LLM's time to first token). Default 150 ms. */
  firstTokenMs?: number;
  /** Delay between tokens. Default 15 ms. */
  tokenMs?: number;
  signal?: AbortSignal;
}

/** Yields `text` in LLM-like tokens (1-5 characters, deterministic) with LLM-like timing. */
export async function* scriptedTokens(text: string, options: ScriptedTokenOptions = {}): AsyncIterable<string> {
  const tokens = text.match(/\s*[^\s]{1,5}|\s+/g) ?? [];
  await delay(options.firstTokenMs ?? 150, options.signal);
  for (let i = 0; i < tokens.length; i++) {
    if (i > 0) await delay(options.tokenMs ?? 15, options.signal);
    yield tokens[i] as string;
  }
}

/** Replies of the offline "assistant", picked by turn number. */
export const SCRIPTED_REPLIES = [
  'Hi! Thanks for calling voxpipe. [happy] How can I help you today?',
  'Sure. I can read out your order status, change a delivery date, or connect you to a person. Which one would you like?',
  'Got it. [calm] Give me a moment while I look that up for you.',
  'All done. Your delivery is now booked for Thursday morning. Is there anything else?',
];

/** The LLM the examples use: OpenAI-compatible when `OPENAI_API_KEY` is set, scripted otherwise. */
export function exampleLlm(env: NodeJS.ProcessEnv = process.env): (history: ChatMessage[], turn: number, signal: AbortSignal) => AsyncIterable<string> {
  const apiKey = env.OPENAI_API_KEY;
  if (apiKey) {
    const baseUrl = env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1';
    const model = env.OPENAI_MODEL ?? 'gpt-4o-mini';
    return (history, _turn, signal) => openAiChatTokens({ baseUrl, apiKey, model, messages: history, signal });
  }
  return (_history, turn, signal) => scriptedTokens(SCRIPTED_REPLIES[turn % SCRIPTED_REPLIES.length] as string, { signal });
}
