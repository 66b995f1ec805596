"""Small real HTTP servers that play a hostile model server (issue 33): they answer ``/v1/models`` as an OpenAI
server would and ``/v1/chat/completions`` as each test tells them (a redirect, the key echoed back, a body trickled
or huge, a 401, duplicate JSON keys). Bound to a loopback address only (127.0.0.1, 127.0.0.2); every loop is
bounded, and each server shuts itself down after :data:`LIFETIME` seconds if its test has not stopped it."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from .servers import MODEL

LIFETIME = 180.0  # seconds a server lives at most


@dataclass
class Seen:
    """One request a server received."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes


Reply = Callable[[BaseHTTPRequestHandler, Seen, int], None]  # (handler, request, its number among chat requests)


@dataclass
class Hostile:
    """A server on ``host``; ``chat`` answers each chat request (default: the grade 1), ``models`` the model list
    (default: the list of :data:`MODEL`)."""

    host: str = "127.0.0.1"
    chat: Reply | None = None
    models: Reply | None = None
    seen: list[Seen] = field(default_factory=list)

    def __post_init__(self) -> None:
        owner = self
        self._lock = threading.Lock()
        self._chats = 0

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:  # quiet
                pass

            def _seen(self) -> Seen:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(min(length, 1 << 22)) if length else b""
                seen = Seen(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                with owner._lock:
                    owner.seen.append(seen)
                return seen

            def do_GET(self) -> None:
                seen = self._seen()
                if not seen.path.endswith("/models"):
                    send_json(self, 404, {"error": "no such page"})
                elif owner.models is not None:
                    owner.models(self, seen, 0)
                else:
                    send_json(self, 200, {"object": "list", "data": [{"id": MODEL, "object": "model"}]})

            def do_POST(self) -> None:
                seen = self._seen()
                with owner._lock:
                    number = owner._chats
                    owner._chats += 1
                (owner.chat or grade_answer(1))(self, seen, number)

        self.server = ThreadingHTTPServer((self.host, 0), Handler)
        self.server.daemon_threads = True
        self.port = int(self.server.server_address[1])
        self._thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        self._ends = threading.Timer(LIFETIME, self.stop)
        self._ends.daemon = True
        self._ends.start()

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    def chats(self) -> list[Seen]:
        with self._lock:
            return [s for s in self.seen if s.method == "POST"]

    def stop(self) -> None:
        self._ends.cancel()
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self) -> Hostile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def send(handler: BaseHTTPRequestHandler, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(body)))
    for name, value in (headers or {}).items():
        handler.send_header(name, value)
    handler.end_headers()
    handler.wfile.write(body)


def send_json(handler: BaseHTTPRequestHandler, status: int, value: object) -> None:
    send(handler, status, json.dumps(value).encode())


def completion(content: str) -> bytes:
    """A chat-completions body whose message content is ``content``."""
    return json.dumps(
        {
            "object": "chat.completion",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 3},
        }
    ).encode()


def grade_answer(grade: int) -> Reply:
    def reply(handler: BaseHTTPRequestHandler, seen: Seen, number: int) -> None:
        send(handler, 200, completion(json.dumps({"grade": grade})))

    return reply


def raw_answer(body: bytes, status: int = 200) -> Reply:
    def reply(handler: BaseHTTPRequestHandler, seen: Seen, number: int) -> None:
        send(handler, status, body)

    return reply


def after(good: int, then: Reply, first: Reply | None = None) -> Reply:
    """The first ``good`` chat requests answered by ``first`` (the grade 1), every later one by ``then``."""

    def reply(handler: BaseHTTPRequestHandler, seen: Seen, number: int) -> None:
        (first or grade_answer(1) if number < good else then)(handler, seen, number)

    return reply


def redirect_to(code: int, location: str) -> Reply:
    def reply(handler: BaseHTTPRequestHandler, seen: Seen, number: int) -> None:
        send(handler, code, b"", {"Location": location})

    return reply


def trickle(where: str, every: float = 0.5, most: int = 120) -> Reply:
    """An answer sent one byte at a time, ``every`` seconds apart: its ``headers`` (from the status line on) or its
    ``body``; at most ``most`` bytes, then the connection is closed (the loop is bounded)."""

    def reply(handler: BaseHTTPRequestHandler, seen: Seen, number: int) -> None:
        body = completion('{"grade": 2}')
        head = f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode()
        if where == "body":
            handler.wfile.write(head)
            handler.wfile.flush()
            slow = body
        else:
            slow = head + body
        try:
            for byte in slow[:most]:
                handler.wfile.write(bytes([byte]))
                handler.wfile.flush()
                time.sleep(every)
        except OSError:
            pass  # the client went away: the point
        handler.close_connection = True

    return reply


def huge(size: int, status: int = 200) -> Reply:
    """A body of ``size`` bytes: a chat completion whose content is that long (sent in pieces, then closed)."""

    def reply(handler: BaseHTTPRequestHandler, seen: Seen, number: int) -> None:
        prefix = b'{"choices": [{"message": {"role": "assistant", "content": "'
        suffix = b'"}}]}'
        filler = size - len(prefix) - len(suffix)
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(size))
        handler.end_headers()
        try:
            handler.wfile.write(prefix)
            piece = b"x" * (1 << 16)
            while filler > 0:
                handler.wfile.write(piece[: min(filler, len(piece))])
                filler -= len(piece)
            handler.wfile.write(suffix)
        except OSError:
            pass  # the client stopped reading: the point
        handler.close_connection = True

    return reply
