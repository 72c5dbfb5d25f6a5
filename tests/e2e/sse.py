"""A small Server-Sent Events reader for the stream tests (docs/api.md, "Live updates"):
messages parsed from the bytes of a response as the HTML Standard reads them, in-process (a
Flask test client's response) or over a real socket (http.client)."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Message:
    """One block of the stream: a message (``event``, ``data``, ``id``), or only comments
    and a ``retry``."""

    event: str = ""
    data: str = ""
    id: str | None = None
    retry: int | None = None
    comments: tuple[str, ...] = field(default=())

    @property
    def json(self) -> Any:
        return json.loads(self.data)


def parse(chunks: Iterable[bytes]) -> Iterator[Message]:
    """The blocks of a stream, as its bytes arrive."""
    buffer = b""
    for chunk in chunks:
        buffer += chunk
        while b"\n\n" in buffer:
            block, buffer = buffer.split(b"\n\n", 1)
            fields: dict[str, Any] = {"comments": ()}
            data: list[str] = []
            for line in block.decode().split("\n"):
                name, _, value = line.partition(":")
                value = value.removeprefix(" ")
                if name == "":
                    fields["comments"] += (value,)
                elif name == "data":
                    data.append(value)
                elif name == "retry":
                    fields["retry"] = int(value)
                elif name in ("id", "event"):
                    fields[name] = value
            yield Message(data="\n".join(data), **fields)


def events(blocks: Iterator[Message]) -> Iterator[Message]:
    """Only the messages that carry an event."""
    return (block for block in blocks if block.event)


class Stream:
    """A stream read over a real connection (closed on leaving)."""

    def __init__(self, port: int, path: str, headers: dict[str, str] | None = None) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.connection.request("GET", f"/api/v1{path}", headers=headers or {})
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self.blocks = parse(iter(lambda: self.response.read1(65536), b""))

    def messages(self) -> Iterator[Message]:
        """The event messages as they come (heartbeats skipped)."""
        return events(self.blocks)

    def events(self, count: int) -> list[Message]:
        """The next ``count`` event messages (heartbeats skipped)."""
        found: list[Message] = []
        for block in self.messages():
            found.append(block)
            if len(found) == count:
                break
        return found

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> Stream:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
