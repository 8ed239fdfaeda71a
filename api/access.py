"""Who holds a match's key: the request's bearer key against the match's own (or its evening's), for a write
(which needs it) and for a read (which shows the hands only with it).

The key's hash comes from the process's cache of matches (`api.matches`: a match's key never changes), read
from the match's row only the first time; a key is compared with its hash in constant time (`api.keys`).
"""

from __future__ import annotations

from flask import request

from . import store
from .errors import KeyRequired, WrongKey
from .keys import bearer_key, key_matches
from .matches import cache

WRITE_NEEDS_KEY = "Changing a match needs its key: send the header Authorization: Bearer <key>."
READ_WITH_KEY = ("Send the match's key as Authorization: Bearer <key>, or no Authorization header to read the match "
                 "without its hands.")


def authorize(match_id: str, no_key: str = WRITE_NEEDS_KEY) -> None:
    """The match exists (404) and the request carries its key (401 without one, 403 with another): the match's
    own, or the key of the evening it belongs to."""
    key_hash = cache().key_hash(match_id)
    key = bearer_key()
    if key is None:
        raise KeyRequired(no_key)
    if not key_matches(key, key_hash) and not evening_key_opens(match_id, key):
        raise WrongKey("That is not this match's key.")


def evening_key_opens(match_id: str, key: str) -> bool:
    """Whether `key` is the key of the evening the match belongs to."""
    key_hash = store.current().evening_key_hash(match_id)
    return key_hash is not None and key_matches(key, key_hash)


def reader_has_key(match_id: str) -> bool:
    """Whether a read comes with the match's key: False without an Authorization header, True with the right
    key; a wrong or malformed one is refused as for a write (401, 403), so a phone can check a key with it."""
    if "HTTP_AUTHORIZATION" not in request._get_current_object().environ:  # as `bearer_key` reads it
        return False
    authorize(match_id, READ_WITH_KEY)
    return True
