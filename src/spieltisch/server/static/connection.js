// The WebSocket to one table (protocol: docs/server.md), reconnecting with back-off;
// it answers the server's pings itself.

/** A table's live connection: says `hello` with the seat token, reconnects when it drops. */
export class Connection {
  /**
   * @param {string} code the table's code
   * @param {string|null} token the seat token (null: watch as a spectator)
   * @param {string} lang the language of narration and labels
   * @param {{message: function, status: function}} on message(msg) and status(connected)
   */
  constructor(code, token, lang, on) {
    this.code = code;
    this.token = token;
    this.lang = lang;
    this.on = on;
    this.ws = null;
    this.backoff = 500;
    this.closed = false;
    this.sent = 0;
  }

  open() {
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${proto}://${location.host}/ws/${this.code}?lang=${this.lang}`);
    this.ws = ws;
    ws.onopen = () => {
      this.backoff = 500;
      ws.send(JSON.stringify({ type: 'hello', token: this.token }));
      this.on.status(true);
    };
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      // the server times its pings on its own clock: answer before anything is drawn
      if (msg.type === 'ping') {
        ws.send(JSON.stringify({ type: 'pong', id: msg.id }));
        return;
      }
      this.on.message(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws || this.closed) return;
      this.on.status(false);
      setTimeout(() => { if (this.ws === ws && !this.closed) this.open(); }, this.backoff);
      this.backoff = Math.min(this.backoff * 2, 8000);
    };
  }

  /** Send `msg`; false when the connection is down (it is reconnecting). */
  send(msg) {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** Play `action` (its text form) with a fresh client message id. */
  act(action) {
    this.sent += 1;
    return this.send({ type: 'action', action, id: `a${Date.now().toString(36)}${this.sent}` });
  }

  /** The person pressed "I'm ready" (the clocks wait for every person: docs/server.md). */
  ready() {
    return this.send({ type: 'ready' });
  }

  /** Pass the open reaction window (only when the snapshot's `may_pass` says so). */
  pass() {
    return this.send({ type: 'pass' });
  }

  /** The misclick question for `action` opened (null: it was cancelled): the server
   * stops this seat's move timer meanwhile, so hesitating costs no time. */
  guard(action) {
    return this.send({ type: 'guard', action });
  }

  /** Accept the server's offer of another pace for the rest of the round. */
  pace(pace) {
    return this.send({ type: 'pace', pace });
  }

  /** Switch narration and labels to `lang` (the server answers with a fresh state). */
  setLanguage(lang) {
    this.lang = lang;
    this.send({ type: 'lang', lang });
  }

  /** Watch instead of playing (a token the server refused): reconnect without it. */
  dropToken() {
    this.token = null;
    this.ws?.close();
  }

  close() {
    this.closed = true;
    this.ws?.close();
  }
}
