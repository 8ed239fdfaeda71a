// The page talks to the API over HTTP, like any other client (openapi.yaml is the contract).

const TIMEOUT_MS = 10000;

/** An answer that is not a success: `status` 0 and `network` true when the server could not be reached. */
export class ApiError extends Error {
  constructor(status, error, network = false) {
    super(error.message || `HTTP ${status}`);
    this.status = status;
    this.code = error.code || (network ? "network" : `http_${status}`);
    this.details = error.details || {};
    this.network = network;
  }

  /** Worth sending again later, unchanged: the network (a body that came too slowly too), or the server busy for a
   * moment (an outcome it could not tell included: the Idempotency-Key records the entry at most once). */
  get retryable() {
    return this.network || this.status === 408 || this.status === 429 || this.status >= 500;
  }
}

/** One request; resolves to {status, data, etag}, or throws ApiError. */
export async function request(method, path, { body, key, idempotencyKey, etag } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (key) headers.Authorization = `Bearer ${key}`;
  if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
  if (etag) headers["If-None-Match"] = etag;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
      signal: controller.signal,
    });
  } catch {
    throw new ApiError(0, {}, true);
  } finally {
    clearTimeout(timer);
  }
  if (response.status === 304) return { status: 304, data: null, etag };
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, (data && data.error) || {});
  return { status: response.status, data, etag: response.headers.get("ETag") };
}

const match = (id) => `api/matches/${encodeURIComponent(id)}`;

/**
 * The key reads are made with. Without it the server leaves out the hands entered for the referee (the
 * table's secret until played); the scorer's phone reads with it only while it shows the hands.
 */
export const reading = { key: null };

export const api = {
  games: () => request("GET", "api/games"),
  create: (body) => request("POST", "api/matches", { body }),
  state: (id, etag) => request("GET", match(id), { etag, key: reading.key }),
  /** Whether `key` is the match's: 200 with it, 403 wrong_key otherwise; records nothing. */
  checkKey: (id, key) => request("GET", match(id), { key }),
  events: (id, after = 0) => request("GET", `${match(id)}/events${after ? `?after=${after}` : ""}`, { key: reading.key }),
  settlement: (id) => request("GET", `${match(id)}/settlement`),
  qrUrl: (id) => `${match(id)}/qr.svg`,
  streamUrl: (id) => `${match(id)}/stream`,
  post: (id, route, body, key, idempotencyKey) =>
    request("POST", `${match(id)}/${route}`, { body, key, idempotencyKey }),
};
