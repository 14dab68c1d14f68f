#!/usr/bin/env python3
"""live-httpd.py ADDR PORT DIR [DIE_AFTER [CERT KEY]]: the HTTP server of the live root
boot cases (tests/boot/cases-live.sh), run inside the test's network
namespace. GET serves the files of DIR, with Range (bytes=N-) answered
206; each request is logged with its Range header on stderr. With
DIE_AFTER, the first answer of more than that many bytes stops after them
and the whole server exits, as a server that dies mid-transfer: the case
starts it again (0: never). With CERT and KEY (PEM files) it speaks HTTPS
only. ADDR may be an IPv6 address."""
import http.server
import os
import socket
import ssl
import sys
import urllib.parse

ROOT = os.path.realpath(sys.argv[3])
DIE_AFTER = int(sys.argv[4]) if len(sys.argv) > 4 else 0


def served_file(url_path):
    """The file of DIR a request names; ValueError outside DIR."""
    name = urllib.parse.unquote(urllib.parse.urlsplit(url_path).path).lstrip("/")
    path = os.path.realpath(os.path.join(ROOT, name))
    if path == ROOT or os.path.commonpath([path, ROOT]) != ROOT:
        raise ValueError(url_path)
    return path


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        rng = self.headers.get("Range", "")
        sys.stderr.write("GET %s range=%s\n" % (self.path, rng or "-"))
        sys.stderr.flush()
        try:
            path = served_file(self.path)
            size = os.path.getsize(path)
        except (ValueError, OSError):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        start = 0
        if rng.startswith("bytes=") and rng.endswith("-"):
            start = int(rng[6:-1])
        if start >= size and size:
            self.send_response(416)
            self.send_header("Content-Range", "bytes */%d" % size)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(206 if start else 200)
        if start:
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, size - 1, size))
        self.send_header("Content-Length", str(size - start))
        self.end_headers()
        self.send_body(path, start, size)

    def send_body(self, path, start, size):
        with open(path, "rb") as f:
            f.seek(start)
            left = size - start
            if DIE_AFTER and left > DIE_AFTER:
                self.wfile.write(f.read(DIE_AFTER))
                self.wfile.flush()
                sys.stderr.write("dying after %d bytes\n" % DIE_AFTER)
                sys.stderr.flush()
                os._exit(3)
            while left > 0:
                data = f.read(min(left, 1 << 20))
                if not data:
                    return
                self.wfile.write(data)
                left -= len(data)

    def log_message(self, fmt, *args):
        pass


class Server(http.server.ThreadingHTTPServer):
    address_family = socket.AF_INET6 if ":" in sys.argv[1] else socket.AF_INET


server = Server((sys.argv[1], int(sys.argv[2])), Handler)
if len(sys.argv) > 6:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[5], sys.argv[6])
    server.socket = context.wrap_socket(server.socket, server_side=True)
server.serve_forever()
