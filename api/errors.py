"""The API's errors, and the one handler that answers every error with one JSON shape.

Every error the API sends is `{"error": {"code", "message", "details"}}`: a stable `code` clients can
translate, a `message` for people, and `details` (always an object) with what the code needs.
"""

from __future__ import annotations

import logging
import re

from flask import Flask, has_request_context, jsonify, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from referee import CODES, InvalidInput, Rejected

from . import store

log = logging.getLogger(__name__)


class ApiError(Exception):
    "An error of the API itself, answered with its own status and code"

    status = 400
    code = "bad_request"

    def __init__(self, message: str, details: dict | None = None):
        super().__init__(message)
        self.message = message
        self.details = details or {}


class BadJson(ApiError):
    "The body is not a JSON document"

    code = "bad_json"


class BadContentType(ApiError):
    "The body is not sent as application/json"

    code = "bad_content_type"


class BadBody(ApiError):
    "A body whose framing is broken (chunked encoding with a bad chunk size or no end) or that ends before its length"

    code = "bad_body"


class BodyTooSlow(ApiError):
    "A body that did not arrive whole within its deadline (the worker's, `api/worker.py`)"

    status = 408
    code = "body_too_slow"


class KeyRequired(ApiError):
    "A write without the match's key"

    status = 401
    code = "key_required"


class WrongKey(ApiError):
    "A write with a key that is not the match's"

    status = 403
    code = "wrong_key"


class MatchNotFound(ApiError):
    "No match has this id"

    status = 404
    code = "match_not_found"


class SeqConflict(ApiError):
    "The match's log has moved on since the client last looked"

    status = 409
    code = "seq_conflict"


class CreationRetryExpired(ApiError):
    "A creation retried after the time in which its answer, and the match key, are given again"

    status = 409
    code = "creation_retry_expired"


class PossiblyRecorded(ApiError):
    "A write without Idempotency-Key nor expect_seq to a match where such a write may have been recorded unanswered"

    status = 409
    code = "possibly_recorded"


class BadIdempotencyKey(ApiError):
    "An Idempotency-Key header that is empty, too long or not plain text"

    status = 422
    code = "bad_idempotency_key"


class IdempotencyKeyReused(ApiError):
    "The same Idempotency-Key sent again with a different request"

    status = 422
    code = "idempotency_key_reused"


class StorageBusy(ApiError):
    "The database stayed locked by other writers for longer than the busy timeout"

    status = 503
    code = "storage_busy"


class StorageUnavailable(ApiError):
    "The database cannot be opened, read or written: a read-only, full, corrupt or missing file"

    status = 503
    code = "storage_unavailable"


class OutcomeUnknown(ApiError):
    "The connection to the database was lost while the write committed: it may or may not be recorded"

    status = 503
    code = "outcome_unknown"


RETRY_AFTER = {"unreachable": 2}  # seconds, by reason: a database server restarting is found within a second
RETRY_AFTER_REPAIR = 30  # a store that waits for a person: a full disk, a damaged or missing file, read-only
UNKNOWN_OUTCOMES = {
    "event": "Event {seq} may or may not have been recorded: the connection to the database was lost while it was "
             "being committed. Read the match to see whether it is there, or send it again with the same "
             "Idempotency-Key (or with expect_seq), which records it at most once.",
    "match": "The match may or may not have been created: the connection to the database was lost while it was "
             "being committed. Send it again with the same Idempotency-Key: the answer is the match if it was "
             "created, and it is created once if not.",
    "evening": "The evening may or may not have been created: the connection to the database was lost while it was "
               "being committed. Send it again with the same Idempotency-Key: the answer is the evening if it was "
               "created, and it is created once if not.",
    "club": "The club (or its rule) may or may not have been written: the connection to the database was lost while "
            "it was being committed. Read the club to see, or send it again with the same Idempotency-Key.",
    "member": "The change of the club's members may or may not have been written: the connection to the database "
              "was lost while it was being committed. Read the club to see, and send it again if it is not there.",
    "payment": "The payment may or may not have been marked: the connection to the database was lost while it was "
               "being committed. Send it again with the same Idempotency-Key: it is marked once.",
}


def store_error(error: store.StoreError) -> ApiError | None:
    """The API's answer to an error of the store: 404 for an unknown match, 503 for storage out of order
    (busy, unreachable, read-only, full, damaged); None for an error that is a bug (answered 500)."""
    if isinstance(error, store.UnknownMatch):
        return MatchNotFound(f"No match has the id {error.match_id!r}.", {"id": error.match_id})
    if isinstance(error, store.Busy):
        return StorageBusy("The server is too busy writing other matches just now; try again in a moment. "
                           "Nothing was recorded by this request.")
    if isinstance(error, store.Unavailable):
        return storage_unavailable(error.reason, error.cause)
    if isinstance(error, store.OutcomeUnknown):
        return OutcomeUnknown(UNKNOWN_OUTCOMES[error.what].format(seq=error.seq),
                              {} if error.seq is None else {"seq": error.seq})
    return None


def storage_unavailable(reason: str, cause: str) -> StorageUnavailable:
    """The 503 for storage out of order; `cause` says what is wrong in a few plain words."""
    if not has_request_context() or request.method in ("GET", "HEAD"):  # a stream reads after its request
        message = f"The matches cannot be read now: {cause}. Try again once the server's storage is fixed."
    else:
        message = (f"Nothing was recorded: the matches cannot be written now, {cause}. Try again once the "
                   "server's storage is fixed; a retry with the same Idempotency-Key is safe.")
    return StorageUnavailable(message, {"reason": reason})


def retry_after(error: StorageBusy | StorageUnavailable | OutcomeUnknown) -> int:
    """Seconds before a retry may succeed: 1 for a busy store, 2 for a database server out of reach (or lost in a
    commit), which its pool finds again within a second of its return; 30 where a person has to mend the store."""
    if isinstance(error, StorageBusy):
        return 1
    if isinstance(error, OutcomeUnknown):
        return RETRY_AFTER["unreachable"]
    return RETRY_AFTER.get(error.details.get("reason"), RETRY_AFTER_REPAIR)


HTTP_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
}


def error_response(status: int, code: str, message: str, details: dict | None = None):
    response = jsonify({"error": {"code": code, "message": message, "details": details or {}}})
    response.status_code = status
    return response


def handle_error(error: Exception):
    """Turns any exception raised while answering a request into the one error shape."""
    if isinstance(error, store.StoreError) and (answered := store_error(error)):
        if isinstance(answered, (StorageBusy, StorageUnavailable, OutcomeUnknown)):
            log.error("storage failure answering %s %s: %s", request.method, request.path, error)
        error = answered
    if isinstance(error, (StorageBusy, StorageUnavailable, OutcomeUnknown)):
        response = error_response(error.status, error.code, error.message, error.details)
        response.headers["Retry-After"] = str(retry_after(error))
        return response
    if isinstance(error, ApiError):
        response = error_response(error.status, error.code, error.message, error.details)
        if getattr(error, "retry_after", None):
            response.headers["Retry-After"] = str(error.retry_after)
        return response
    if isinstance(error, Rejected):  # the engine's verdicts answer with the status of their code in CODES
        return error_response(status_of(error, 409), error.code, error.message,
                              {**error.details, "seat": error.seat, "forceable": error.forceable})
    if isinstance(error, InvalidInput):
        return error_response(status_of(error, 422), error.code, error.message, error.details)
    if isinstance(error, ValidationError):
        return validation_error(error)
    if isinstance(error, HTTPException):
        return http_error(error)
    log.exception("unexpected error answering %s %s", request.method, request.path)
    return error_response(500, "internal_error", "Something went wrong on the server; please try again.")


def status_of(error: Rejected | InvalidInput, otherwise: int) -> int:
    """The status of an engine's verdict: its code's in CODES (tests/engine/test_verdict_codes.py holds every code
    the engine gives to that list)."""
    listed = CODES.get(error.code)
    return listed.status if listed else otherwise


def validation_error(error: ValidationError):
    details = error.messages if isinstance(error.messages, dict) else {"_schema": error.messages}
    problems = " ".join(f"{field}: {describe(problem)}" for field, problem in details.items())
    return error_response(422, "invalid_input", f"The request is not valid: {problems}", details)


def describe(problem: object) -> str:
    """One field's messages (marshmallow nests them in lists and dicts) as one line."""
    if isinstance(problem, list):
        return " ".join(describe(item) for item in problem)
    if isinstance(problem, dict):
        return ", ".join(f"{key}: {describe(value)}" for key, value in problem.items())
    return str(problem)


def http_error(error: HTTPException):
    status = error.code or 500
    code = HTTP_CODES.get(status) or re.sub(r"\W+", "_", (error.name or "error").lower()).strip("_")
    if status == 404:
        message = f"There is no {request.path} here; the API lives under /api (see /openapi.yaml)."
    elif status == 405:
        message = f"{request.path} does not answer {request.method}."
    elif status == 413:
        message = "The request body is too large."
    else:
        message = error.description or error.name
    response = error_response(status, code, message)
    if status == 405 and getattr(error, "valid_methods", None):
        response.headers["Allow"] = ", ".join(error.valid_methods)
    return response


def register(app: Flask) -> None:
    app.register_error_handler(Exception, handle_error)
