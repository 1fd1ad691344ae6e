import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A loopback TCP port piped to the gateway's Unix socket, as the forwarder inside the container does:
 * the SDKs under test speak plain HTTP to 127.0.0.1 and reach the socket through it.
 */
export async function forwardToSocket(socketPath: string): Promise<{ url: string; close(): Promise<void> }> {
  const open = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(socketPath);
    open.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}
