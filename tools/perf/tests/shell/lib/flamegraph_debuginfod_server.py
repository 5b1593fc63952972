#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A debuginfod server for flamegraph_debuginfod.sh, on 127.0.0.1.

flamegraph_debuginfod_server.py silent|serve PORTFILE LOG [DIR]

Listens on a free port, which it writes to PORTFILE once it accepts, and
logs each request it reads to LOG, one line each: "debuginfo BUILD-ID" or
"executable BUILD-ID". "silent" reads each request and never answers,
the connection kept open, as a server that hangs. "serve" answers
/buildid/BUILD-ID/debuginfo with DIR/BUILD-ID.debug and .../executable
with DIR/BUILD-ID, 404 for what DIR does not have.
"""

import os
import re
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

mode, portfile, logfile = sys.argv[1:4]
directory = sys.argv[4] if len(sys.argv) > 4 else None
log_lock = threading.Lock()
REQUEST = re.compile(r"^GET /buildid/([0-9a-f]+)/(debuginfo|executable) ")


def log(line):
    """One line of LOG per request, whole as soon as it is read."""
    with log_lock, open(logfile, "a", encoding="ascii") as f:
        f.write(line + "\n")


def announce(port):
    """PORTFILE appears with the port in it, whole."""
    with open(portfile + ".tmp", "w", encoding="ascii") as f:
        f.write(f"{port}\n")
    os.rename(portfile + ".tmp", portfile)


def hang(conn, held):
    """Read the request, log it, and never answer."""
    held.append(conn)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(4096)
        if not chunk:
            return
        data += chunk
    m = REQUEST.match(data.decode("latin-1"))
    log(f"{m.group(2)} {m.group(1)}" if m else "other")


def silent():
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    announce(sock.getsockname()[1])
    held = []
    while True:
        conn, _ = sock.accept()
        threading.Thread(target=hang, args=(conn, held), daemon=True).start()


class Handler(BaseHTTPRequestHandler):
    """Serve DIR's files by build-id."""

    def do_GET(self):
        m = REQUEST.match(f"GET {self.path} ")
        if not m:
            log("other")
            self.send_error(404)
            return
        bid, what = m.group(1), m.group(2)
        log(f"{what} {bid}")
        path = os.path.join(directory, bid + (".debug" if what == "debuginfo" else ""))
        try:
            with open(path, "rb") as f:
                body = f.read()
        except OSError:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):  # pylint: disable=redefined-builtin
        pass


def serve():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    announce(server.server_address[1])
    server.serve_forever()


if mode == "silent":
    silent()
else:
    serve()
