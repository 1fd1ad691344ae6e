"""The loopback forwarder, run on the host's python3 as the sandbox runs it: a TCP client on
127.0.0.1 reaches a Unix socket server byte for byte in both directions, the agent's exit status is the
forwarder's, and a missing socket closes the client's connection instead of hanging it."""

import os
import socket
import subprocess
import sys
import tempfile
import threading

FORWARDER = os.path.join(os.path.dirname(__file__), "..", "forwarder", "forwarder.py")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def echo_server(path):
    """A Unix socket server that answers each connection with 'got:' and what it read until EOF."""
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    srv.listen(8)

    def serve():
        while True:
            try:
                conn, _ = srv.accept()
            except OSError:
                return
            data = b""
            while True:
                chunk = conn.recv(65536)
                if not chunk:
                    break
                data += chunk
            conn.sendall(b"got:" + data)
            conn.close()

    threading.Thread(target=serve, daemon=True).start()
    return srv


CLIENT = """
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
payload = b"x" * 300000 + b"end"
s.sendall(payload)
s.shutdown(socket.SHUT_WR)
got = s.makefile("rb").read()
print(len(got), got[:4].decode(), got[-3:].decode())
sys.exit(int(sys.argv[2]))
"""


def test_forwards_both_ways_and_exits_with_the_agent_status():
    with tempfile.TemporaryDirectory() as d:
        sock = os.path.join(d, "gw.sock")
        srv = echo_server(sock)
        port = free_port()
        out = subprocess.run(
            [sys.executable, FORWARDER, str(port), sock, sys.executable, "-c", CLIENT, str(port), "7"],
            capture_output=True, text=True, timeout=30,
        )
        srv.close()
        assert out.returncode == 7, out.stderr
        assert out.stdout.split() == [str(300003 + 4), "got:", "end"]


READER = """
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
print(len(s.recv(100)))
"""


def test_a_missing_socket_closes_the_connection():
    with tempfile.TemporaryDirectory() as d:
        port = free_port()
        out = subprocess.run(
            [sys.executable, FORWARDER, str(port), os.path.join(d, "absent.sock"),
             sys.executable, "-c", READER, str(port)],
            capture_output=True, text=True, timeout=30,
        )
        assert out.returncode == 0
        assert out.stdout.split() == ["0"]
        assert "cannot reach the gateway socket" in out.stderr


def test_usage_without_an_agent():
    out = subprocess.run([sys.executable, FORWARDER, "1"], capture_output=True, text=True, timeout=30)
    assert out.returncode == 2
    assert "usage" in out.stderr
