#!/usr/bin/env python3
"""vlan-relay: the test network's VLAN switch port, in user space (the test
host's kernel has neither 8021q nor bridge VLAN filtering).

Frames from the guest arrive over qemu's UDP socket backend; those tagged
with VID are passed on to the tap TAP (a port of the namespace's bridge)
with the tag removed, anything else is dropped and counted. Frames from the
tap go back to the guest with the tag added.
Usage: vlan-relay.py TAP VID LISTEN-PORT QEMU-PORT (both on 127.0.0.1)
"""
import fcntl
import os
import select
import socket
import struct
import sys

TUNSETIFF = 0x400454CA
IFF_TAP, IFF_NO_PI = 0x0002, 0x1000
TPID = b"\x81\x00"


def open_tap(name):
    fd = os.open("/dev/net/tun", os.O_RDWR)
    fcntl.ioctl(fd, TUNSETIFF, struct.pack("16sH", name.encode(), IFF_TAP | IFF_NO_PI))
    return fd


def main():
    tap_name, vid, listen, qemu = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    tap = open_tap(tap_name)
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", listen))
    tag = TPID + struct.pack("!H", vid)
    dropped = 0
    while True:
        ready, _, _ = select.select([tap, udp], [], [])
        if udp in ready:
            frame = udp.recv(65536)
            if frame[12:14] == TPID and struct.unpack("!H", frame[14:16])[0] & 0xFFF == vid:
                os.write(tap, frame[:12] + frame[16:])
            else:
                dropped += 1
                print(f"dropped an untagged or other-VLAN frame ({dropped})", flush=True)
        if tap in ready:
            frame = os.read(tap, 65536)
            udp.sendto(frame[:12] + tag + frame[12:], ("127.0.0.1", qemu))


if __name__ == "__main__":
    main()
