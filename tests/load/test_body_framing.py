"""A body over the limit is refused however it is framed; a broken chunked body is a 400, never a 500.

Sent over a raw socket to a real gunicorn, as a client at the club's Wi-Fi could send it.
"""

from __future__ import annotations

import json
import socket

import pytest
from gunicorn_server import serve

LIMIT = 64 * 1024


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with serve(tmp_path_factory.mktemp("framing") / "referee.db") as base:
        yield base


def send(base: str, raw: bytes) -> tuple[int, dict]:
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(raw)
        sock.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    if b"transfer-encoding: chunked" in head.lower():
        body = dechunk(body)
    return status, json.loads(body) if body.strip() else {}


def dechunk(body: bytes) -> bytes:
    out = b""
    while body:
        size, _, rest = body.partition(b"\r\n")
        n = int(size, 16)
        if n == 0:
            break
        out, body = out + rest[:n], rest[n + 2:]
    return out


def chunked_post(path: str, chunks: list[bytes], end: bytes = b"0\r\n\r\n") -> bytes:
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n").encode()
    return head + b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for chunk in chunks) + end


@pytest.mark.server
def test_a_chunked_body_over_the_limit_is_413_and_creates_nothing(server):
    body = json.dumps({"game": "ogorek", "players": ["S", "W", "N", "E"]}).encode() + b" " * 70_000  # valid JSON
    status, answer = send(server, chunked_post("/api/matches", [body[i:i + 4096] for i in range(0, len(body), 4096)]))
    assert status == 413 and answer["error"]["code"] == "body_too_large"


@pytest.mark.server
def test_a_chunked_body_within_the_limit_is_read_whole(server):
    body = json.dumps({"game": "ogorek", "players": ["S", "W", "N", "E"]}).encode() + b" " * 60_000
    status, answer = send(server, chunked_post("/api/matches", [body[i:i + 1000] for i in range(0, len(body), 1000)]))
    assert status == 201 and answer["players"][3]["name"] == "E"


@pytest.mark.server
@pytest.mark.parametrize("raw", [
    b"zz\r\n{}\r\n0\r\n\r\n",  # a chunk size that is no number
    b"5\r\n{\"a\"}xx\r\n0\r\n\r\n",  # a chunk longer than its size says
    b"20\r\n{\"game\": \"ogorek\"}",  # the body ends inside a chunk, with no terminator
])
def test_broken_chunked_framing_is_400_in_the_error_shape(server, raw):
    head = (b"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
    status, answer = send(server, head + raw)
    assert status == 400, answer
    assert set(answer["error"]) == {"code", "message", "details"}


def known_length_post(path: str, body: bytes, length: int) -> bytes:
    return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {length}\r\nConnection: close\r\n\r\n").encode() + body


@pytest.mark.server
def test_a_body_that_ends_before_its_content_length_is_400_and_creates_nothing(server):
    body = json.dumps({"game": "ogorek", "players": ["S", "W", "N", "E"]}).encode()
    status, answer = send(server, known_length_post("/api/matches", body, len(body) + 40))  # then the client stops
    assert status == 400 and answer["error"]["code"] == "bad_body", answer
    status, answer = send(server, known_length_post("/api/matches", body + b" " * 40, len(body) + 40))
    assert status == 201 and answer["seq"] == 0  # the same body whole: a match


@pytest.mark.server
def test_a_content_length_over_the_limit_is_413_before_the_body_is_read(server):
    status, answer = send(server, known_length_post("/api/matches", b'{"game": "ogorek"}', LIMIT + 1))
    assert status == 413 and answer["error"]["code"] == "body_too_large"


@pytest.mark.server
@pytest.mark.parametrize("codings", [
    [b"gzip, chunked"], [b"deflate, chunked"], [b"compress, chunked"], [b"identity, chunked"],
    [b"gzip", b"chunked"],  # the same in two header lines
])
def test_a_transfer_coding_other_than_chunked_is_400_and_creates_nothing(server, codings):
    """The body is plain JSON, but the client says it is gzipped (or deflated...) before being chunked: it is
    not read as if the coding were not there (the server decodes no such coding)."""
    body = json.dumps({"game": "ogorek", "players": ["S", "W", "N", "E"]}).encode()
    head = (b"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + b"".join(b"Transfer-Encoding: %s\r\n" % coding for coding in codings) + b"Connection: close\r\n\r\n")
    status, answer = send(server, head + b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body))
    assert status == 400 and answer["error"]["code"] == "bad_body", answer
    assert "chunked" in answer["error"]["message"]
    status, answer = send(server, chunked_post("/api/matches", [body]))
    assert status == 201  # the same body, plainly chunked: a match
