"""A minimal authoritative DNS server on loopback UDP, for tests of `dns://` client targets.

It answers A queries for one name with several addresses, as a Kubernetes headless Service's
DNS name does (one A record per ready pod), NODATA for the name's other record types, and
NXDOMAIN for every other name (gRPC also asks for `_grpc_config.<name>` TXT and
`_grpclb._tcp.<name>` SRV). gRPC's c-ares resolver dials it through the target's authority:
`dns://127.0.0.1:<port>/<name>:<server port>`.
"""

from __future__ import annotations

import socket
import struct
import threading
from collections import Counter

A, CLASS_IN = 1, 1
NOERROR, NXDOMAIN, FORMERR = 0, 3, 1


def _read_name(packet: bytes, at: int) -> tuple[str, int]:
    """The dotted name starting at `at` in a query (no compression pointers in questions)."""
    labels = []
    while packet[at]:
        n = packet[at]
        labels.append(packet[at + 1:at + 1 + n].decode("ascii"))
        at += 1 + n
    return ".".join(labels), at + 1


class DnsServer:
    """`DnsServer(name, addresses)`: `.port`, `.queries` (Counter of (name, qtype)), `.close()`.
    `addresses` may be replaced while running (`set_addresses`), as pods come and go."""

    def __init__(self, name: str, addresses: list[str], ttl: int = 1) -> None:
        self.name, self.ttl = name.lower().rstrip("."), ttl
        self._addresses = list(addresses)
        self.queries: Counter = Counter()
        self._lock = threading.Lock()
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self._sock.bind(("127.0.0.1", 0))
        self.port = self._sock.getsockname()[1]
        self._thread = threading.Thread(target=self._serve, name="dns-server", daemon=True)
        self._thread.start()

    def set_addresses(self, addresses: list[str]) -> None:
        with self._lock:
            self._addresses = list(addresses)

    def close(self) -> None:
        self._sock.close()
        self._thread.join(5)

    def _serve(self) -> None:
        while True:
            try:
                packet, peer = self._sock.recvfrom(4096)
            except OSError:  # closed
                return
            reply = self._answer(packet)
            if reply is not None:
                self._sock.sendto(reply, peer)

    def _answer(self, packet: bytes) -> bytes | None:
        if len(packet) < 12:
            return None
        qid, flags, qdcount = struct.unpack("!HHH", packet[:6])
        rd = flags & 0x0100
        try:
            if qdcount != 1:
                raise ValueError("one question expected")
            name, end = _read_name(packet, 12)
            qtype, _qclass = struct.unpack("!HH", packet[end:end + 4])
        except (IndexError, ValueError, struct.error, UnicodeDecodeError):
            return struct.pack("!HHHHHH", qid, 0x8000 | rd | FORMERR, 0, 0, 0, 0)
        question = packet[12:end + 4]
        name = name.lower()
        with self._lock:
            self.queries[(name, qtype)] += 1
            addresses = list(self._addresses)
        if name != self.name:
            return struct.pack("!HHHHHH", qid, 0x8400 | rd | NXDOMAIN, 1, 0, 0, 0) + question
        records = [socket.inet_aton(a) for a in addresses] if qtype == A else []
        head = struct.pack("!HHHHHH", qid, 0x8400 | rd | NOERROR, 1, len(records), 0, 0)
        answers = b"".join(struct.pack("!HHHIH", 0xC00C, A, CLASS_IN, self.ttl, 4) + r for r in records)
        return head + question + answers
