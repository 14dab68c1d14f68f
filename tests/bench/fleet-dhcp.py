#!/usr/bin/env python3
"""fleet-dhcp.py DEV OUT: the DHCPv4 requests of tests/bench/fleet.sh's
clients as they reach DEV (the namespace's bridge), one line each in OUT:
"EPOCH-SECONDS MAC TYPE" (TYPE: DISCOVER, REQUEST, ... from option 53).
The host's clock, so that the benchmark can tell what came before a
server started. Says "ready" on stdout once it listens; runs until killed."""
import socket
import sys
import time

TYPES = {1: "DISCOVER", 3: "REQUEST", 4: "DECLINE", 7: "RELEASE", 8: "INFORM"}
ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4


def dhcp_type(opts):
    """Option 53 of a BOOTP options field, or None."""
    i = 0
    while i < len(opts) and opts[i] != 255:
        if opts[i] == 0:
            i += 1
            continue
        if i + 1 >= len(opts):
            return None
        if opts[i] == 53 and opts[i + 1] >= 1 and i + 2 < len(opts):
            return opts[i + 2]
        i += 2 + opts[i + 1]
    return None


def client_request(frame):
    """(MAC, TYPE) of a DHCP client's message to port 67, or None."""
    if len(frame) < 14 + 20 + 8 + 240 or frame[12:14] != b"\x08\x00" or frame[23] != 17:
        return None
    udp = 14 + (frame[14] & 15) * 4
    if frame[udp + 2:udp + 4] != b"\x00\x43":
        return None
    bootp = udp + 8
    if frame[bootp] != 1 or frame[bootp + 236:bootp + 240] != b"\x63\x82\x53\x63":
        return None
    mac = ":".join("%02x" % b for b in frame[bootp + 28:bootp + 34])
    kind = dhcp_type(frame[bootp + 240:])
    return mac, TYPES.get(kind, str(kind))


def main():
    # ETH_P_ALL: a bridge's broadcasts reach only the sockets of every
    # protocol, as in tests/boot/cases-netdev.sh's net_wait_dhcp.
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    s.bind((sys.argv[1], 0))
    out = open(sys.argv[2], "a", buffering=1)
    print("ready", flush=True)
    while True:
        frame, addr = s.recvfrom(4096)
        if addr[2] == PACKET_OUTGOING:
            continue
        req = client_request(frame)
        if req:
            out.write("%.3f %s %s\n" % (time.time(), req[0], req[1]))


main()
