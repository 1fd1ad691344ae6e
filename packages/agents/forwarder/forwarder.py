"""The loopback forwarder of a third-party agent's sandbox.

The sandbox has no network (`--network none`), yet an agent speaks HTTP to a base URL. The worker's
model gateway listens on a Unix socket that is bind-mounted into the container; this program listens on
127.0.0.1:<port> inside the container, joins every connection to that socket byte for byte, and starts
the agent as its child. It exits with the agent's exit status once the agent ends, so the forwarder
lives exactly as long as the agent and never outlives it in the container.

It reads nothing it forwards: no key is added (the gateway holds it on the host) and nothing is
parsed, so an agent that misbehaves over HTTP gets the gateway's answer, not ours.

Usage: forwarder.py <port> <socket path> <agent program> [<argument>...]
Standard library only: it runs on the sandbox image's python3.
"""

import asyncio
import os
import signal
import sys

CHUNK = 64 * 1024


async def pipe(reader, writer):
    try:
        while True:
            data = await reader.read(CHUNK)
            if not data:
                break
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        try:
            if writer.can_write_eof():
                writer.write_eof()
        except (ConnectionError, OSError):
            pass


def joiner(socket_path):
    async def join(client_reader, client_writer):
        try:
            up_reader, up_writer = await asyncio.open_unix_connection(socket_path)
        except OSError as err:
            # The gateway is gone (the attempt is ending): the agent sees a closed connection.
            sys.stderr.write(f"gitbench forwarder: cannot reach the gateway socket: {err}\n")
            client_writer.close()
            return
        await asyncio.gather(pipe(client_reader, up_writer), pipe(up_reader, client_writer))
        for w in (client_writer, up_writer):
            try:
                w.close()
            except (ConnectionError, OSError):
                pass

    return join


async def serve(port, socket_path, argv):
    server = await asyncio.start_server(joiner(socket_path), "127.0.0.1", port)
    # Listening before the agent starts: its first request never meets a refused connection.
    agent = await asyncio.create_subprocess_exec(*argv)

    def stop(signum, _frame=None):
        if agent.returncode is None:
            agent.send_signal(signum)

    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop, signum)
    code = await agent.wait()
    server.close()
    return code


def main(args):
    if len(args) < 3:
        sys.stderr.write("usage: forwarder.py <port> <socket path> <agent program> [<argument>...]\n")
        return 2
    code = asyncio.run(serve(int(args[0]), args[1], args[2:]))
    # A signal's death reads as 128 + signal, as bash reports it.
    return code if code >= 0 else 128 - code


if __name__ == "__main__":
    status = main(sys.argv[1:])
    sys.stderr.flush()
    # Not sys.exit: a connection the agent left half open must not hold the exit.
    os._exit(status)
