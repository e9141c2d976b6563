#!/usr/bin/env python3
"""Hostile bursts against a RESP server on 127.0.0.1, for burst-recovery.sh.

  bursts.py PORT pipeline   one client pipelines 100,000 GETs of a 100 KB value, reads nothing,
                            closes after 3 s
  bursts.py PORT huge       SET of a 200 MB value, GET of it (read whole), DEL
  bursts.py PORT fat        20 clients each send 20 MB of a bulk that never completes, then close

Every loop is bounded; nothing is left stored.
"""
import socket
import sys
import time


def connect(port):
    return socket.create_connection(("127.0.0.1", port), timeout=30)


def command(*args):
    out = b"*%d\r\n" % len(args)
    for arg in args:
        arg = arg if isinstance(arg, bytes) else str(arg).encode()
        out += b"$%d\r\n%s\r\n" % (len(arg), arg)
    return out


def read_line(sock):
    line = b""
    while not line.endswith(b"\r\n"):
        chunk = sock.recv(1)
        if not chunk:
            raise EOFError("server closed the connection")
        line += chunk
    return line


def pipeline(port):
    value = b"v" * 100_000
    setup = connect(port)
    setup.sendall(command("SET", "burst:big", value))
    read_line(setup)
    client = connect(port)
    client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    batch = command("GET", "burst:big") * 1000
    client.settimeout(5)
    try:
        for _ in range(100):
            client.sendall(batch)
    except OSError:
        pass
    time.sleep(3)
    client.close()
    setup.sendall(command("DEL", "burst:big"))
    read_line(setup)
    setup.close()


def huge(port):
    size = 200_000_000
    client = connect(port)
    client.sendall(command("SET", "burst:huge", b"h" * size))
    read_line(client)
    client.sendall(command("GET", "burst:huge"))
    header = read_line(client)
    remaining = int(header[1:]) + 2
    while remaining > 0:
        chunk = client.recv(min(remaining, 1 << 20))
        if not chunk:
            raise EOFError("server closed the connection")
        remaining -= len(chunk)
    client.sendall(command("DEL", "burst:huge"))
    read_line(client)
    client.close()


def fat(port):
    clients = []
    chunk = b"f" * (1 << 20)
    for _ in range(20):
        client = connect(port)
        client.sendall(b"*3\r\n$3\r\nSET\r\n$10\r\nburst:fat0\r\n$%d\r\n" % (100 * 1024 * 1024))
        for _ in range(20):
            client.sendall(chunk)
        clients.append(client)
    time.sleep(1)
    for client in clients:
        client.close()


if __name__ == "__main__":
    {"pipeline": pipeline, "huge": huge, "fat": fat}[sys.argv[2]](int(sys.argv[1]))
