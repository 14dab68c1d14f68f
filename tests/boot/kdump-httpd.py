#!/usr/bin/env python3
"""kdump-httpd.py ADDR PORT DIR [CERT KEY]: the HTTP server of the kdump
network tests, run inside the test's network namespace. PUT stores the body
under DIR (making directories), MOVE renames within DIR (WebDAV's
Destination header), as nginx's dav module would. Nothing else is served.
With CERT and KEY (PEM files) it speaks HTTPS only; a client that refuses
the certificate is logged and dropped."""
import http.server
import os
import ssl
import sys
import urllib.parse

ROOT = os.path.abspath(sys.argv[3])


def local(path):
    p = os.path.normpath(os.path.join(ROOT, urllib.parse.unquote(urllib.parse.urlsplit(path).path).lstrip("/")))
    if not p.startswith(ROOT + os.sep):
        raise ValueError(path)
    return p


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def reply(self, code):
        self.send_response(code)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def body_chunks(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            while True:
                size = int(self.rfile.readline().split(b";")[0], 16)
                if size == 0:
                    self.rfile.readline()
                    return
                yield self.rfile.read(size)
                self.rfile.readline()
        left = int(self.headers.get("Content-Length", "0"))
        while left > 0:
            data = self.rfile.read(min(left, 1 << 20))
            if not data:
                return
            left -= len(data)
            yield data

    def do_PUT(self):
        path = local(self.path)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            for data in self.body_chunks():
                f.write(data)
        self.reply(201)

    def do_MOVE(self):
        src, dst = local(self.path), local(self.headers["Destination"])
        if not os.path.exists(src):
            self.reply(404)
            return
        os.replace(src, dst)
        self.reply(201)


server = http.server.ThreadingHTTPServer((sys.argv[1], int(sys.argv[2])), Handler)
if len(sys.argv) > 5:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[4], sys.argv[5])
    server.socket = context.wrap_socket(server.socket, server_side=True)
server.serve_forever()
