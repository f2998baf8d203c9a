// voxpipe console: a small browser client of the reference service (no build step, no dependencies).
// State for humans is on the page; state for automated tests is on window.voxpipeConsole.

const $ = (id) => document.getElementById(id);
const state = (window.voxpipeConsole = {
  connected: false,
  turns: 0,
  ttfaMs: null,
  chunks: 0,
  audioBytes: 0,
  audioMs: 0,
  finals: 0,
  errors: [],
  cues: [],
  messages: [],
});

// ---------- API key ----------
const keyInput = $('api-key');
const fromHash = new URLSearchParams(location.hash.slice(1)).get('key');
if (fromHash) {
  localStorage.setItem('voxpipe.key', fromHash);
  history.replaceState(null, '', location.pathname);
}
keyInput.value = localStorage.getItem('voxpipe.key') ?? '';
keyInput.addEventListener('change', () => {
  localStorage.setItem('voxpipe.key', keyInput.value.trim());
  closeSocket();
  loadCatalog();
});
const apiKey = () => keyInput.value.trim();
const wsUrl = (path, params = {}) => {
  const url = new URL(path, location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  for (const [k, v] of Object.entries({ ...params, 'x-api-key': apiKey() })) if (v) url.searchParams.set(k, v);
  return url.toString();
};
async function getJson(path) {
  const res = await fetch(path, { headers: { 'x-api-key': apiKey() } });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  return res.json();
}

// ---------- catalog ----------
async function loadCatalog() {
  try {
    const catalog = await getJson('/console/catalog');
    fill($('model'), catalog.models.map((m) => [m.id, m.id]), catalog.models.at(-1)?.id);
    fill($('voice'), catalog.voices.map((v) => [v.voicePromptId, `${v.name} (${v.gender.toLowerCase()}, ${v.locale})`]));
    fill($('format'), catalog.formats.map((f) => [f, f]), 's16le');
    fill($('sample-rate'), catalog.sampleRates.map((r) => [String(r), `${r} Hz`]), '24000');
  } catch (error) {
    log(`catalog: ${error.message}`, true);
  }
}
function fill(select, options, selected) {
  select.replaceChildren(...options.map(([value, label]) => new Option(label, value, false, value === selected)));
}

// ---------- speech session ----------
let socket = null;
let ready = null;
let playback = null;

function setConn(text, ok) {
  $('conn-state').textContent = text;
  $('conn-state').classList.toggle('ok', ok);
  state.connected = ok;
}
function closeSocket() {
  socket?.close();
  socket = null;
  ready = null;
}
function currentConfig() {
  const format = $('format').value;
  return {
    model: $('model').value,
    voicePromptId: $('voice').value,
    format,
    sampleRate: Number($('sample-rate').value),
    realtime: true,
    acceptEmojis: $('accept-emojis').checked,
  };
}
function connect() {
  if (ready) return ready;
  ready = new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl('/ws'));
    socket = ws;
    ws.onmessage = (event) => {
      const msg = JSON.parse(event.data);
      onMessage(msg);
      if (msg.action === 'status' && msg.message === 'connected') {
        setConn('connected', true);
        resolve(ws);
      }
    };
    ws.onerror = () => reject(new Error('socket error (check the API key)'));
    ws.onclose = () => {
      setConn('disconnected', false);
      if (socket === ws) closeSocket();
      reject(new Error('socket closed'));
    };
  });
  return ready;
}

function onMessage(msg) {
  state.messages.push(msg);
  if (msg.action) {
    log(msg.action === 'error' ? `error: ${msg.message}` : `${msg.action}${msg.message ? `: ${msg.message}` : ''}`, msg.action === 'error');
    if (msg.action === 'error') state.errors.push(msg.message);
    if (msg.action === 'status' && msg.message === 'cancelled') endTurn();
    return;
  }
  if (msg.error) {
    state.errors.push(msg.error);
    log(`generation ${short(msg.generationId)} failed: ${msg.error}`, true);
    return;
  }
  const flags = [msg.isFinished && 'isFinished', msg.isFinal && 'isFinal', msg.isCancelled && 'isCancelled'].filter(Boolean).join(' ');
  const bytes = msg.data ? atob(msg.data).length : 0;
  log(`chunk ${short(msg.generationId)} #${msg.index ?? '-'} ${bytes} B ${flags}`);
  if (msg.data && playback) playback.push(base64Bytes(msg.data));
  if (msg.isFinal) {
    state.finals++;
    playback?.finish();
    endTurn();
  }
}

async function speak() {
  const text = $('text').value;
  if (!text.trim()) return;
  try {
    const ws = await connect();
    const config = currentConfig();
    playback = createPlayback(config.format, config.sampleRate);
    state.turns++;
    $('speak').disabled = true;
    $('cancel').disabled = false;
    ws.send(JSON.stringify({ action: 'stream-config', config }));
    // Stream the text the way an LLM would: a few characters at a time.
    for (const piece of text.match(/[\s\S]{1,6}/g)) ws.send(JSON.stringify({ action: 'stream-text', text: piece }));
    playback.startedAt = performance.now();
    ws.send(JSON.stringify({ action: 'end-stream' }));
  } catch (error) {
    log(error.message, true);
    endTurn();
  }
}
function endTurn() {
  $('speak').disabled = false;
  $('cancel').disabled = true;
}
$('speak').addEventListener('click', speak);
$('cancel').addEventListener('click', () => {
  socket?.send(JSON.stringify({ action: 'cancel' }));
  playback?.stop();
});

// ---------- playback ----------
const MULAW = new Int16Array(256).map((_, i) => {
  const u = ~i & 0xff;
  const t = (((u & 0x0f) << 3) + 0x84) << ((u & 0x70) >> 4);
  return u & 0x80 ? 0x84 - t : t - 0x84;
});
function base64Bytes(b64) {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}
function stripWav(bytes) {
  if (bytes.length < 12 || String.fromCharCode(...bytes.slice(0, 4)) !== 'RIFF') return bytes;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = String.fromCharCode(...bytes.slice(offset, offset + 4));
    const size = view.getUint32(offset + 4, true);
    if (id === 'data') return bytes.slice(offset + 8);
    offset += 8 + size + (size & 1);
  }
  return new Uint8Array(0);
}
function createPlayback(format, sampleRate) {
  state.ttfaMs = null;
  state.chunks = 0;
  state.audioBytes = 0;
  state.audioMs = 0;
  $('ttfa').textContent = '…';
  const streamable = format === 'wav' || format === 's16le' || format === 'mulaw';
  const ctx = streamable ? (window.voxpipeAudio ??= new AudioContext()) : null;
  ctx?.resume();
  let nextTime = 0;
  const sources = new Set();
  const stored = [];
  return {
    startedAt: performance.now(),
    push(bytes) {
      if (state.ttfaMs === null) {
        state.ttfaMs = Math.round(performance.now() - this.startedAt);
        $('ttfa').textContent = `${state.ttfaMs} ms`;
      }
      state.chunks++;
      state.audioBytes += bytes.length;
      $('chunks').textContent = String(state.chunks);
      if (!streamable) {
        stored.push(bytes);
        return;
      }
      const pcm = format === 'wav' ? stripWav(bytes) : bytes;
      const samples = format === 'mulaw' ? Float32Array.from(pcm, (b) => MULAW[b] / 32768) : int16ToFloat(pcm);
      if (samples.length === 0) return;
      state.audioMs += (samples.length / sampleRate) * 1000;
      $('audio-ms').textContent = String(Math.round(state.audioMs));
      const buffer = ctx.createBuffer(1, samples.length, sampleRate);
      buffer.copyToChannel(samples, 0);
      const source = ctx.createBufferSource();
      source.buffer = buffer;
      source.connect(ctx.destination);
      nextTime = Math.max(nextTime, ctx.currentTime + 0.03);
      source.start(nextTime);
      nextTime += buffer.duration;
      sources.add(source);
      source.onended = () => sources.delete(source);
    },
    finish() {
      if (streamable) return;
      const player = $('player');
      player.hidden = false;
      player.src = URL.createObjectURL(new Blob(stored, { type: format === 'mp3' ? 'audio/mpeg' : 'audio/ogg' }));
      player.play().catch(() => {});
    },
    stop() {
      for (const s of sources) s.stop();
      sources.clear();
    },
  };
}
function int16ToFloat(bytes) {
  const n = bytes.length >> 1;
  const view = new DataView(bytes.buffer, bytes.byteOffset, n * 2);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = view.getInt16(i * 2, true) / 32768;
  return out;
}

// ---------- captions ----------
let captions = null;
$('captions-follow').addEventListener('click', () => {
  captions?.close();
  const id = $('caption-service').value.trim();
  const params = { lang: $('caption-lang').value.trim(), playlist_url: $('caption-playlist').value.trim() };
  captions = new WebSocket(wsUrl(`/live/services/${encodeURIComponent(id)}/captions/ws`, params));
  $('captions-stop').disabled = false;
  captions.onmessage = (event) => {
    const frame = JSON.parse(event.data);
    if (frame.type === 'cue') {
      state.cues.push(frame);
      addItem($('cues'), `${frame.seq}  ${fmt(frame.start)} → ${fmt(frame.end)}  ${frame.text}`);
    } else if (frame.type === 'hello') {
      addItem($('cues'), `following ${frame.playlistUrl}`);
    } else if (frame.type === 'error') {
      addItem($('cues'), `error: ${frame.message}`, true);
    }
  };
  captions.onclose = () => ($('captions-stop').disabled = true);
});
$('captions-stop').addEventListener('click', () => captions?.close());
const fmt = (s) => (typeof s === 'number' ? s.toFixed(2) : String(s));

// ---------- jobs and services ----------
async function refresh() {
  try {
    const jobs = await getJson('/dubbing/jobs');
    fillTable($('jobs'), (jobs.items ?? []).map((j) => [j.requestId, j.status, (j.additionalProducts ?? []).map((p) => `${p.product}:${p.state ?? '?'}`).join(' ')]));
  } catch (error) {
    log(`jobs: ${error.message}`, true);
  }
  try {
    const body = await getJson('/live/services');
    const list = Array.isArray(body) ? body : (body.items ?? body.services ?? body.data ?? []);
    fillTable($('services'), list.map((s) => [s.id ?? s.serviceId, s.config?.name ?? s.name ?? '', s.state ?? s.status ?? '']));
  } catch (error) {
    log(`services: ${error.message}`, true);
  }
}
function fillTable(table, rows) {
  table.tBodies[0].replaceChildren(...rows.map((cells) => {
    const tr = document.createElement('tr');
    for (const c of cells) tr.append(Object.assign(document.createElement('td'), { textContent: String(c ?? '') }));
    return tr;
  }));
}
$('refresh').addEventListener('click', refresh);

// ---------- log ----------
function short(id) {
  return String(id ?? '').slice(0, 8);
}
function log(text, isError = false) {
  addItem($('messages'), text, isError);
}
function addItem(list, text, isError = false) {
  const li = document.createElement('li');
  li.textContent = text;
  if (isError) li.className = 'error';
  list.append(li);
  while (list.children.length > 300) list.firstElementChild.remove();
  list.scrollTop = list.scrollHeight;
}

if (apiKey()) {
  loadCatalog();
  refresh();
}
