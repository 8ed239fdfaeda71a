// Entries waiting to be sent, kept in localStorage so that a phone without network loses nothing.
//
// Every entry gets its own Idempotency-Key and the expect_seq of the log it was entered against, when it is
// entered. A request whose answer was lost is sent again with the same key, and the server answers it
// without recording it twice. An entry the server refuses is taken out and reported; the entries behind it
// were entered against a log that will not be, so they are taken out too and handed back for the table to
// decide.

import { api } from "./api.js";
import { local, randomKey } from "./local.js";

const RETRY_MS = 2500;

export class Outbox {
  constructor(matchId, key, { recorded, refused, changed }) {
    this.matchId = matchId;
    this.key = key;
    // An answer's handler draws the page itself, at once, from the state the answer brings: the queue without the
    // answered entry is not drawn before it, which would show the step the entry left, empty, as if still to enter.
    this.recorded = recorded; // (answer, entry)
    this.refused = refused; // (error, entry, dropped entries)
    this.changed = changed; // () -> the queue or the connection changed
    this.sending = null;
    this.offline = false;
    this.timer = null;
    window.addEventListener("online", () => this.flush());
  }

  get storageName() {
    return `outbox.${this.matchId}`;
  }

  entries() {
    return local.get(this.storageName) || [];
  }

  save(entries, { quiet = false } = {}) {
    local.set(this.storageName, entries.length ? entries : null);
    if (!quiet) this.changed();
  }

  /**
   * Queues one write: `route` "events" or "undo"; `seq` the last seq of the log as this phone sees it; `step`,
   * kept with it and never sent, what the page showed beside it (to draw its step the same while it waits).
   */
  add(route, body, seq, step) {
    const entries = this.entries();
    const entry = { id: randomKey(), route, body: { ...body, expect_seq: seq + entries.length } };
    if (step) entry.step = step;
    this.save([...entries, entry]);
    this.flush();
    return entry;
  }

  /** Takes back the latest entry if it has not gone out yet; true when it did. */
  cancelLast() {
    const entries = this.entries();
    const last = entries[entries.length - 1];
    if (!last || (this.sending && this.sending.id === last.id)) return false;
    this.save(entries.slice(0, -1));
    return true;
  }

  async flush() {
    if (this.sending || !this.key) return;
    clearTimeout(this.timer);
    for (let entries = this.entries(); entries.length; entries = this.entries()) {
      const entry = entries[0];
      this.sending = entry;
      try {
        const answer = await api.post(this.matchId, entry.route, entry.body, this.key, entry.id);
        this.offline = false;
        this.save(this.entries().filter((e) => e.id !== entry.id), { quiet: true });
        this.recorded(answer.data, entry);
      } catch (error) {
        if (error.retryable) {
          this.setOffline(error.network);
          this.timer = setTimeout(() => this.flush(), RETRY_MS);
          return;
        }
        this.offline = false;
        const rest = this.entries().filter((e) => e.id !== entry.id);
        this.save([], { quiet: true });
        this.refused(error, entry, rest);
      } finally {
        this.sending = null;
      }
    }
  }

  setOffline(offline) {
    if (this.offline !== offline) {
      this.offline = offline;
      this.changed();
    }
  }
}
