// Following a match live: the server pushes each new state as a Server-Sent Event (`/stream`); while the
// stream is broken the page polls the state with its ETag instead, and tries the stream again now and then.

const STREAM_AGAIN_MS = 20000;

/**
 * Calls `onState(state, text)` with each new state the stream brings (and the message's text), or `poll()` every
 * `pollMs` while the stream is down (the browser has none, the network or a proxy broke it), telling `onLink(up)`
 * whether the stream brings the states. Answers a function that stops.
 */
export function follow({ url, onState, poll, pollMs, onLink = () => {} }) {
  let source = null;
  let polling = null;
  let again = null;

  const startPolling = () => {
    if (polling === null) polling = setInterval(poll, pollMs);
  };
  const stopPolling = () => {
    if (polling !== null) clearInterval(polling);
    polling = null;
  };

  const openStream = () => {
    again = null;
    if (typeof EventSource === "undefined") {
      onLink(false);
      startPolling();
      return;
    }
    source = new EventSource(url);
    source.onopen = () => onLink(true);
    source.onmessage = (message) => {
      stopPolling();
      onLink(true);
      let state;
      try {
        state = JSON.parse(message.data);
      } catch {
        return;
      }
      onState(state, message.data); // its text too: the same seq sent again in other words is a restore
    };
    source.onerror = () => {
      source.close();
      source = null;
      onLink(false);
      poll(); // whatever the stream did not bring before it broke
      startPolling();
      if (again === null) again = setTimeout(openStream, STREAM_AGAIN_MS);
    };
  };

  openStream();
  return () => {
    if (source) source.close();
    if (again !== null) clearTimeout(again);
    stopPolling();
  };
}
