#!/usr/bin/python3
# nbft-table.py: a whole NBFT (NVMe Boot Firmware Table, NVM Express Boot
# Specification 1.0) for qemu's -acpitable file=FILE, which takes the table
# as it is, header and checksum included (unlike data=, which writes the
# 36-byte ACPI header itself: the NBFT's header goes on past it with the
# heap's place). One host, one HFI (index 1, NVMe/TCP, a static address or
# DHCP) and one SSNS (index 1, namespace 1) on that HFI. Offsets count from
# the table's first byte; strings and the HFI's transport info lie in the
# heap; addresses are 16 bytes, IPv4 mapped into IPv6.
# Python, as ibft-table.py beside it: the table is test data for one boot
# case, and struct.pack says each field's width where it is written.
# Usage: nbft-table.py OUT HOSTNQN HOSTID MAC VLAN ADDRESS PREFIX GATEWAY
#                      TRADDR TRSVCID SUBNQN
# (VLAN 0: none; ADDRESS "dhcp": the firmware's DHCP; GATEWAY "-": none)
import ipaddress
import struct
import sys
import uuid

HEADER, CONTROL, HOST, HFI, SSNS, TRINFO = 64, 64, 32, 32, 128, 128
TCP = 3
VALID = 1


def ip16(text):
    """An address as the table keeps it: 16 bytes, IPv4 mapped."""
    if not text or text == "-":
        return bytes(16)
    a = ipaddress.ip_address(text)
    return (a.packed if a.version == 6 else ipaddress.IPv6Address("::ffff:" + text).packed)


def main():
    (out, hostnqn, hostid, mac, vlan, addr, prefix, gateway,
     traddr, trsvcid, subnqn) = sys.argv[1:12]
    ctl = HEADER
    host = ctl + CONTROL
    hfi = host + HOST
    ssns = hfi + HFI
    heap = ssns + SSNS
    blob = bytearray()

    def put(data):
        """Data into the heap: its (offset, length) reference."""
        off = heap + len(blob)
        blob.extend(data)
        return off, len(data)

    def put_str(text):
        # The length leaves the NUL out, which follows (libnvme's reading).
        off, n = put(text.encode() + b"\0")
        return off, n - 1

    dhcp = addr == "dhcp"
    trinfo = struct.pack("<BBBBHBI6sHB16sB16sBH16s16s16s6s18x",
                         7, 1, TCP, 1, 1, VALID | (4 if dhcp else 0), 0,
                         bytes.fromhex(mac.replace(":", "")), int(vlan), 0,
                         ip16("" if dhcp else addr), 0 if dhcp else int(prefix),
                         ip16(gateway), 0, 0, bytes(16), bytes(16), bytes(16), bytes(6))
    assert len(trinfo) == TRINFO
    trinfo_ref = put(trinfo)
    hostnqn_ref = put_str(hostnqn)
    traddr_ref = put(ip16(traddr))
    trsvcid_ref = put_str(trsvcid)
    subnqn_ref = put_str(subnqn)
    length = heap + len(blob)

    def ref(r):
        return struct.pack("<IH", *r)

    header = struct.pack("<4sIBB6s8sIII", b"NBFT", length, 1, 0, b"LBOOT ", b"LIFEBOAT",
                         1, 0x4c424f54, 1)
    header += struct.pack("<II", heap, len(blob)) + bytes(6) + struct.pack("<B", 0) + bytes(13)
    control = struct.pack("<BBBBHBB", 1, 1, 0, 0, CONTROL, VALID, 0) + ref((host, HOST))
    control += struct.pack("<BB", 1, 0)
    control += struct.pack("<IHBB", hfi, HFI, 1, 1)
    control += struct.pack("<IHBB", ssns, SSNS, 1, 1)
    control += struct.pack("<IHBB", 0, 0, 1, 0) + struct.pack("<IHBB", 0, 0, 1, 0) + bytes(16)
    hostd = struct.pack("<BB16s", 2, VALID | 2 | 4, uuid.UUID(hostid).bytes) + ref(hostnqn_ref) + bytes(8)
    hfid = struct.pack("<BBBB12x", 3, 1, VALID, TCP) + ref(trinfo_ref) + bytes(10)
    ssnsd = struct.pack("<BHHBHBB", 4, 1, VALID, TCP, 0, 0, 0) + ref(traddr_ref) + ref(trsvcid_ref)
    ssnsd += struct.pack("<HIB16sBBB", 0, 1, 0, bytes(16), 0, 1, 0)
    ssnsd += bytes(6) + ref(subnqn_ref) + bytes(6) + bytes(62)
    table = bytearray(header + control + hostd + hfid + ssnsd + blob)
    assert (len(header), len(control), len(hostd), len(hfid), len(ssnsd)) == \
        (HEADER, CONTROL, HOST, HFI, SSNS)
    assert len(table) == length
    table[9] = (-sum(table)) & 0xff
    with open(out, "wb") as f:
        f.write(table)


if __name__ == "__main__":
    main()
