#!/usr/bin/python3
# ibft-table.py: the body of an iBFT (iSCSI Boot Firmware Table, v1.03) for
# qemu's -acpitable sig=iBFT,data=FILE, which writes the 36-byte ACPI header
# itself (and the checksum over the whole table). One initiator, one NIC, one
# target, optional CHAP. Offsets in the table count from its first byte.
# Usage: ibft-table.py OUT INITIATOR-NAME MAC TARGET-IP PORT TARGET-NAME [CHAP-NAME CHAP-SECRET]
import ipaddress
import struct
import sys

ACPI_HEADER = 36
VALID, SELECTED = 1, 2


def ip16(text):
    """An address as the iBFT keeps it: IPv4 mapped into IPv6."""
    return ipaddress.IPv6Address("::ffff:" + text).packed if text else bytes(16)


def main():
    out, initiator, mac, tip, port, tname = sys.argv[1:7]
    chap = sys.argv[7:9]
    ctl_len, ini_len, nic_len, tgt_len = 18, 74, 102, 54
    ctl = ACPI_HEADER + 12            # after the header's 12 reserved bytes
    ini = ctl + ctl_len + 6           # structures 8-byte aligned is not required
    nic = ini + ini_len
    tgt = nic + nic_len
    strings = tgt + tgt_len
    heap = b""

    def put(text):
        nonlocal heap
        if not text:
            return 0, 0
        off = strings + len(heap)
        heap += text.encode() + b"\0"
        return len(text), off

    body = bytes(12)
    body += struct.pack("<BBHBBHHHHHH", 1, 1, ctl_len, 0, 0, 0, ini, nic, tgt, 0, 0)
    body += bytes(6)
    body += struct.pack("<BBHBB", 2, 1, ini_len, 0, VALID | SELECTED)
    body += bytes(64) + struct.pack("<HH", *put(initiator))
    body += struct.pack("<BBHBB", 3, 1, nic_len, 0, VALID | SELECTED)
    body += ip16("") + struct.pack("<BB", 24, 3) + ip16("") * 4
    body += struct.pack("<H", 0) + bytes.fromhex(mac.replace(":", "")) + struct.pack("<H", 0x28)
    body += struct.pack("<HH", 0, 0)
    chap_type = 1 if chap else 0
    body += struct.pack("<BBHBB", 4, 1, tgt_len, 0, VALID | SELECTED)
    body += ip16(tip) + struct.pack("<H", int(port)) + bytes([0, 1, 0, 0, 0, 0, 0, 0])
    body += struct.pack("<BB", chap_type, 0) + struct.pack("<HH", *put(tname))
    body += struct.pack("<HHHH", *put(chap[0] if chap else ""), *put(chap[1] if chap else ""))
    body += struct.pack("<HHHH", 0, 0, 0, 0)
    assert ACPI_HEADER + len(body) == strings, (ACPI_HEADER + len(body), strings)
    with open(out, "wb") as f:
        f.write(body + heap)


main()
