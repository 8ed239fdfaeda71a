"""Keys, in one place: ids and keys of new matches and evenings, their hashes, the match key derived from a
creation's Idempotency-Key with the server's secret, the Idempotency-Key header and the request's bearer key
(whether it opens a match is `api.access`'s).

Only hashes of keys are stored, and a key is compared with its hash in constant time. A match created with
an Idempotency-Key gets a key derived from that creation key, the match id and the server's own secret, so
that a retry is given the same key again while nobody without the server's secret can work it out.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets

from flask import request

from . import store
from .errors import BadIdempotencyKey

IDEMPOTENCY_KEY = re.compile(r"^[\x21-\x7e]{1,200}$")
# A creation key is a secret, so it must look random: a UUID v4 or at least 32 hex digits (with letters,
# digits and 8 distinct characters: 32 random hex digits miss that once in 3 million), or at least 22
# base64url characters (128 bits) with both cases and 11 distinct characters (22 random ones miss that
# once in 50,000, 43 of them, 256 bits, once in 10^9). Counters, timestamps, dates, words, names and
# e-mail addresses do not pass: too few distinct characters, one case only, or punctuation.
UUID_V4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$", re.IGNORECASE)
HEX_KEY = re.compile(r"^[0-9a-fA-F]{32,}$")
BASE64URL_KEY = re.compile(r"^[A-Za-z0-9_-]{22,}$")


# --- new ids and keys, and their hashes ------------------------------------------------------------

def new_match_id() -> str:
    """128 random bits, URL-safe (an evening's id too)."""
    return secrets.token_urlsafe(16)


def new_key() -> str:
    """256 random bits, URL-safe: the match key when the creation carries no Idempotency-Key (an evening's key)."""
    return secrets.token_urlsafe(32)


def derived_key(idempotency_key: str, match_id: str, kind: str = "match", key_hash: str | None = None) -> str:
    """The match key of a match created with an Idempotency-Key (the evening key of an evening, `kind`
    "evening"): HMAC-SHA256 keyed by the server's secret over the kind, the creation key and the id. A retry
    of the creation can give the same key again while only hashes are stored, and nobody without the
    server's secret can work it out from the creation key.

    The secret rotates (`kibic secret rotate`): a new creation's key comes from the newest secret; a retry's
    (`key_hash`: the hash stored with the match) from the kept secret that made it, whichever process answers
    and whenever the secret was rotated since (the secrets are read from the store, never held by a process)."""
    message = f"kibic {kind} key".encode() + b"\0" + idempotency_key.encode() + b"\0" + match_id.encode()
    kept = server_secrets()
    if not kept:
        raise store.Unavailable("corrupt", "the database holds no server secret")
    for secret in kept if key_hash is not None else kept[:1]:
        key = base64.urlsafe_b64encode(hmac.new(secret, message, hashlib.sha256).digest()).rstrip(b"=").decode()
        if key_hash is None or key_matches(key, key_hash):
            return key
    return derived_key(idempotency_key, match_id, kind)  # its secret dropped: the retry window is long over


def server_secrets() -> list[bytes]:
    """The server's secrets kept in the store, newest first (`api.admin`'s rotation keeps them in `settings`)."""
    from .admin import parse_secrets

    return [secret.value for secret in parse_secrets(store.current().secret_rows())]


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def key_matches(key: str, key_hash: str) -> bool:
    """Whether `key` is the one hashed in `key_hash`; the comparison takes the same time whatever differs."""
    return hmac.compare_digest(hash_key(key), key_hash)


def request_hash(route: str, body: object) -> str:
    """What tells a retry (the same route and body) from another request sent with the same Idempotency-Key."""
    canonical = json.dumps({"route": route, "body": body}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


# --- the request's keys ------------------------------------------------------------------------------

def bearer_key() -> str | None:
    """The key of the request's `Authorization: Bearer <key>` header; None without one."""
    header = request._get_current_object().environ.get("HTTP_AUTHORIZATION", "")  # the header as the server got it
    scheme, _, key = header.strip().partition(" ")
    key = key.strip()
    return key if scheme.lower() == "bearer" and key else None


def request_idempotency_key(creation: bool = False) -> str | None:
    """The Idempotency-Key header, checked. A creation's key is a secret its match (or evening) key is derived
    from: it must look random (`looks_random`)."""
    key = request._get_current_object().environ.get("HTTP_IDEMPOTENCY_KEY")  # the header as the server got it
    if key is None:
        return None
    if not IDEMPOTENCY_KEY.match(key):
        raise BadIdempotencyKey("An Idempotency-Key is 1 to 200 visible ASCII characters, without spaces.")
    if creation and not looks_random(key):
        raise BadIdempotencyKey(
            "The Idempotency-Key that creates a match or an evening is a secret and must be random: a UUID v4, "
            "32 random hex digits, or 256 random bits in base64url (43 characters).")
    return key


def looks_random(key: str) -> bool:
    """Whether a creation key is of a random kind (a UUID v4, hex, base64url) with the variety randomness has."""
    if UUID_V4.match(key) or HEX_KEY.match(key):
        digits = key.replace("-", "").lower()
        return len(set(digits)) >= 8 and any(c.isdigit() for c in digits) and any(c.isalpha() for c in digits)
    return bool(BASE64URL_KEY.match(key)) and len(set(key)) >= 11 and any(c.isupper() for c in key) \
        and any(c.islower() for c in key)
