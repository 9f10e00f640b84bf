"""gunicorn's worker for fogkeeper: gthread, whose threads get a connection only once its
request line and headers are all in.

gthread hands a connection to a thread as soon as its first bytes arrive, and the thread
then waits, blocked, for the rest of the headers: eight clients sending a header line now
and then held every thread of two workers (checked with tests/security/test_slow_clients.py),
as four held the two sync workers before (issue 37, item 6). Here the worker's main loop,
which waits on every connection at once, gathers the headers itself and lets go of a
connection whose headers are not all in within HEADERS_SECONDS (FOGKEEPER_HEADERS_SECONDS,
10 by default). A slow body is still read by a thread: in production a buffering proxy goes
in front (docs/operations.md, "Protection")."""

from __future__ import annotations

import os
import time

from gunicorn.workers.gthread import ThreadWorker

HEADERS_SECONDS = float(os.environ.get("FOGKEEPER_HEADERS_SECONDS", "10"))
END_OF_HEADERS = b"\r\n\r\n"
MOST = 64 * 1024  # past this, the thread's parser refuses what is there


class _Read:
    """The connection's socket, giving back first what the main loop read of it."""

    def __init__(self, sock, head: bytes):
        self._sock, self._head = sock, head

    def recv(self, size: int) -> bytes:
        if not self._head:
            return self._sock.recv(size)
        chunk, self._head = self._head[:size], self._head[size:]
        return chunk

    def __getattr__(self, name: str):
        return getattr(self._sock, name)


class HeadersFirstWorker(ThreadWorker):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._gathering: dict = {}  # connection -> [bytes so far, deadline]

    def on_client_socket_readable(self, conn, client):
        if conn.initialized or self._headers_in(conn):
            super().on_client_socket_readable(conn, client)

    def _headers_in(self, conn) -> bool:
        """Reads what the connection has sent; True once the headers are in (or it closed,
        or sent more than headers may be), its socket then giving back what was read."""
        head, _ = self._gathering.setdefault(conn, [b"", time.monotonic() + HEADERS_SECONDS])
        try:
            data = conn.sock.recv(MOST)
        except BlockingIOError:
            return False
        except OSError:
            data = b""
        head += data
        if data and END_OF_HEADERS not in head and len(head) <= MOST:
            self._gathering[conn][0] = head
            return False
        del self._gathering[conn]
        conn.sock = _Read(conn.sock, head)
        return True

    def murder_keepalived(self):
        super().murder_keepalived()
        now = time.monotonic()
        for conn in [c for c, (_, deadline) in self._gathering.items() if deadline < now]:
            del self._gathering[conn]
            with self._lock:  # type: ignore[attr-defined]  # ThreadWorker has it; its stub not
                self.poller.unregister(conn.sock)
            self.nr_conns -= 1
            conn.close()
