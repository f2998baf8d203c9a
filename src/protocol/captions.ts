/**
 * Frames of the captions socket `/live/services/{id}/captions/ws?lang=&playlist_url=` (server → client only).
 * `cue.start`/`cue.end` are seconds of media time (the WebVTT cue time mapped through the segment's
 * `X-TIMESTAMP-MAP`: `local − LOCAL + MPEGTS/90000`); `seq` counts cues from 1 on each connection.
 * `error` reports a playlist problem; the socket stays open and keeps following. Shared by client and server; no I/O.
 */
import { z } from 'zod';

/** First frame: the service, language and the resolved subtitle playlist URL. */
export const captionsHelloSchema = z.object({ type: z.literal('hello'), serviceId: z.number(), lang: z.string(), playlistUrl: z.string() });
/**
 * A new cue. Extensions of this server (optional; other servers may omit them): `availableAt`, epoch ms (server clock)
 * when the segment carrying the cue first appeared in the followed playlist, and `programDateTime`, that segment's
 * `EXT-X-PROGRAM-DATE-TIME` in epoch ms when the playlist has one. Clients use them to measure cue delay.
 */
export const captionsCueSchema = z.object({
  type: z.literal('cue'),
  seq: z.number().int(),
  start: z.number(),
  end: z.number(),
  text: z.string(),
  availableAt: z.number().optional(),
  programDateTime: z.number().optional(),
});
/** Sent every few seconds while no cue is pending. */
export const captionsHeartbeatSchema = z.object({ type: z.literal('heartbeat') });
/** A playlist or segment problem; following continues. */
export const captionsErrorSchema = z.object({ type: z.literal('error'), message: z.string() });
/** Any captions frame. */
export const captionsFrameSchema = z.discriminatedUnion('type', [captionsHelloSchema, captionsCueSchema, captionsHeartbeatSchema, captionsErrorSchema]);
/** A captions frame. */
export type CaptionsFrame = z.infer<typeof captionsFrameSchema>;
/** The `hello` frame. */
export type CaptionsHello = z.infer<typeof captionsHelloSchema>;
/** The `cue` frame. */
export type CaptionsCueFrame = z.infer<typeof captionsCueSchema>;

/** Close code the server uses when the followed playlist ended (`#EXT-X-ENDLIST`); clients do not reconnect. */
export const CAPTIONS_CLOSE_ENDED = 4000;
/** Close reason sent with {@link CAPTIONS_CLOSE_ENDED}. */
export const CAPTIONS_ENDED_REASON = 'playlist ended';
/** Close code the server uses when the service was deleted while the socket was open (a reconnect gets 404). */
export const CAPTIONS_CLOSE_GONE = 4004;
