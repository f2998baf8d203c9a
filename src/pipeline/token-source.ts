/**
 * Token sources the pipeline accepts: a plain string, any (async) iterable of strings, and the streaming
 * shapes of common LLM SDKs, read structurally so no SDK is a dependency: OpenAI chat completions chunks
 * (`choices[0].delta.content`) and OpenAI Responses stream events (`response.output_text.delta`).
 */
/** The part of an OpenAI chat completions stream chunk the pipeline reads. */
export interface ChatCompletionChunkLike {
  choices?: ReadonlyArray<{ index?: number; delta?: { content?: string | null } | null }> | null;
}

/** The part of an OpenAI Responses stream event the pipeline reads (`type: 'response.output_text.delta'`). */
export interface ResponseStreamEventLike {
  type: string;
  delta?: unknown;
}

/** One item of a token stream: text, or an LLM SDK stream item carrying text. */
export type TokenStreamItem = string | ChatCompletionChunkLike | ResponseStreamEventLike;

/** Anything the pipeline reads text pieces from. */
export type TokenSource = string | Iterable<string> | AsyncIterable<TokenStreamItem>;

/** The text carried by one stream item, or undefined (role chunks, tool calls, other event types). */
export function deltaText(item: TokenStreamItem): string | undefined {
  if (typeof item === 'string') return item;
  if ('type' in item && typeof item.type === 'string') {
    return item.type === 'response.output_text.delta' && typeof item.delta === 'string' ? item.delta : undefined;
  }
  const choices = (item as ChatCompletionChunkLike).choices;
  const first = choices?.find((c) => (c.index ?? 0) === 0);
  const content = first?.delta?.content;
  return typeof content === 'string' ? content : undefined;
}

/** An iterator over the items of any {@link TokenSource} (a string is one item). */
export function tokenIterator(source: TokenSource): AsyncIterator<TokenStreamItem> | Iterator<TokenStreamItem> {
  if (typeof source === 'string') return [source][Symbol.iterator]();
  if (Symbol.asyncIterator in source) return (source as AsyncIterable<TokenStreamItem>)[Symbol.asyncIterator]();
  return (source as Iterable<string>)[Symbol.iterator]();
}
