#!/usr/bin/python3
"""kdump-ftpd.py ADDR PORT DIR USER PASSWORD: the FTP server of the kdump
FTP test (pyftpdlib), run inside the test's network namespace. USER, with
PASSWORD, may write and rename under DIR; no anonymous login. Each upload
is logged as "FTP-RECEIVED PATH" (or FTP-INCOMPLETE), for the test to see
under which names files arrived."""
import logging
import sys

from pyftpdlib.authorizers import DummyAuthorizer
from pyftpdlib.handlers import FTPHandler
from pyftpdlib.servers import FTPServer

ADDR, PORT, ROOT, USER, PASSWORD = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]


class Handler(FTPHandler):
    passive_ports = range(30000, 30100)

    def on_file_received(self, file):
        print("FTP-RECEIVED", file, flush=True)

    def on_incomplete_file_received(self, file):
        print("FTP-INCOMPLETE", file, flush=True)


authorizer = DummyAuthorizer()
# e: cd, l: list, r: read, a: append, d: delete, f: rename, m: mkdir, w: write
authorizer.add_user(USER, PASSWORD, ROOT, perm="elradfmw")
Handler.authorizer = authorizer
logging.basicConfig(level=logging.INFO, stream=sys.stderr)
FTPServer((ADDR, PORT), Handler).serve_forever()
