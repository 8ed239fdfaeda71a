// What this phone remembers, in localStorage: the language, each match's key and the recent matches.

const PREFIX = "kibic.";

function read(name) {
  try {
    const raw = localStorage.getItem(PREFIX + name);
    return raw === null ? null : JSON.parse(raw);
  } catch {
    return null;
  }
}

function write(name, value) {
  try {
    if (value === null || value === undefined) localStorage.removeItem(PREFIX + name);
    else localStorage.setItem(PREFIX + name, JSON.stringify(value));
  } catch {
    // a full or disabled storage: the page still works, it only forgets
  }
}

export const local = {
  get: read,
  set: write,
  key: (matchId) => read(`key.${matchId}`),
  setKey: (matchId, key) => write(`key.${matchId}`, key),
  recent: () => read("recent") || [],
  remember(match) {
    const entry = { id: match.id, game: match.game, players: match.players.map((p) => p.name), at: Date.now() };
    const others = (read("recent") || []).filter((m) => m.id !== match.id);
    write("recent", [entry, ...others].slice(0, 8));
  },
};

/** A random key for one request (Idempotency-Key): 256 bits, URL-safe; works without HTTPS too. */
export function randomKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** One of `seats`, drawn by lot with the browser's random numbers. */
export function randomSeat(seats) {
  const [value] = crypto.getRandomValues(new Uint32Array(1));
  return seats[value % seats.length];
}
