"""A creation (of a match, of an evening) made once per Idempotency-Key, for the matches and the evenings alike.

Without an Idempotency-Key a creation gets a new id and a random key. With one, the key is derived from the
creation key, the new id and the server's secret (`keys.derived_key`), and the store keeps the creation key's
hash and the request's under a unique index: a retry finds the first creation and gets its id and the same key
again, within 24 hours (else 409 `creation_retry_expired`), for the same request only (else 422
`idempotency_key_reused`). Two attempts of one retry arriving at once both try to store: the index lets one in,
and the other answers as a retry of it.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from . import keys, store
from .errors import CreationRetryExpired, IdempotencyKeyReused

CREATION_RETRY_WINDOW = timedelta(hours=24)  # a retry after that gets no key


@dataclass(frozen=True)
class Kind:
    """What is created: `name` is the route its request is hashed with and the kind its key is derived for;
    `what` and `holder` are how a refused retry names it and who holds its key."""

    name: str
    what: str
    holder: str


MATCH = Kind("match", "a match", "the phone that scores it")
EVENING = Kind("evening", "an evening", "the phone that started it")

# stores the creation: its new id, its key's hash, and with an Idempotency-Key that key's hash and the request's
Stores = Callable[[str, str, str | None, str | None], None]
Finds = Callable[[str], dict | None]  # the row of the creation made with an Idempotency-Key (by its hash)


def create(kind: Kind, idempotency_key: str | None, body: object, stores: Stores,
           finds: Finds) -> tuple[str, str, dict | None]:
    """Creates it once: its id and key, and the row of the first creation when this one is its retry (None when
    it is new). `stores` raises `store.IdempotencyKeyTaken` when the key made one meanwhile, what else it raises
    reaches the caller (nothing stored)."""
    if not idempotency_key:
        new_id, key = keys.new_match_id(), keys.new_key()
        stores(new_id, keys.hash_key(key), None, None)
        return new_id, key, None
    key_hash, digest = keys.hash_key(idempotency_key), keys.request_hash(kind.name, body)
    earlier = finds(key_hash)
    if earlier is None:
        new_id = keys.new_match_id()
        key = keys.derived_key(idempotency_key, new_id, kind=kind.name)
        try:
            stores(new_id, keys.hash_key(key), key_hash, digest)
        except store.IdempotencyKeyTaken:  # the first attempt of this retry was stored just now
            earlier = finds(key_hash)
            if earlier is None:
                raise
        else:
            return new_id, key, None
    first_id = retried(earlier, digest, kind)
    return first_id, keys.derived_key(idempotency_key, first_id, kind=kind.name, key_hash=earlier["key_hash"]), earlier


def retried(earlier: dict, digest: str, kind: Kind) -> str:
    """The id of what the first request with this Idempotency-Key created (`earlier`, its row), when this request
    is its retry: the same request (else 422 `idempotency_key_reused`) within 24 hours (else 409
    `creation_retry_expired`, naming the id but not the key)."""
    if not hmac.compare_digest(earlier["request_hash"] or "", digest):
        raise IdempotencyKeyReused(f"This Idempotency-Key already created {kind.what} from a different request.")
    if datetime.now(UTC) - datetime.fromisoformat(earlier["created"]) > CREATION_RETRY_WINDOW:
        raise CreationRetryExpired(f"This Idempotency-Key created {kind.what} more than 24 hours ago; its key is "
                                   f"only given again within 24 hours. Ask {kind.holder} for the key.",
                                   {"id": earlier["id"]})
    return earlier["id"]
