#!/usr/bin/env python3
"""Open N keep-alive connections to layoutd one by one, make one GET /healthz on each, keep
them all open and idle, then print the server's VmRSS and VmHWM (kB).

Usage: idle_connections.py PORT N PID
Prints: rss_kb=<n> / hwm_kb=<n> / answered=<n>. Exits 1 if a request fails.
"""
import resource
import socket
import sys
import time


def status_kb(pid: str, key: str) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return -1


def main() -> int:
    port, count, pid = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, count + 100)), hard))
    request = b"GET /healthz HTTP/1.1\r\nHost: bench\r\n\r\n"
    sockets = []
    answered = 0
    # One at a time (connect, request, read the answer): a burst of 1,000
    # connects can overflow the listen queue, which is not what is measured.
    for _ in range(count):
        for attempt in range(50):
            try:
                s = socket.create_connection(("127.0.0.1", port))
                break
            except ConnectionRefusedError:
                time.sleep(0.02 * (attempt + 1))
        else:
            break
        s.sendall(request)
        sockets.append(s)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
        if data.startswith(b"HTTP/1.1 200"):
            answered += 1
    time.sleep(1.0)
    print(f"rss_kb={status_kb(pid, 'VmRSS')}")
    print(f"hwm_kb={status_kb(pid, 'VmHWM')}")
    print(f"answered={answered}")
    for s in sockets:
        s.close()
    return 0 if answered == count else 1


if __name__ == "__main__":
    sys.exit(main())
