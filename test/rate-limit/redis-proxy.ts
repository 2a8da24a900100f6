import type { Socket, TCPSocketListener } from 'bun';

interface Pipe {
  upstream?: Socket<unknown>;
  pending: Uint8Array[];
}

/**
 * A TCP relay in front of the test Redis on 127.0.0.1: `down()` closes it and drops every open
 * connection (Redis as seen from the service during an outage), `up()` listens again on the same port.
 * The shared Redis itself is never touched.
 */
export function redisProxy(target = { hostname: '127.0.0.1', port: 6379 }) {
  let listener: TCPSocketListener<Pipe> | null = null;
  const clients = new Set<Socket<Pipe>>();
  const listen = (port: number) => {
    listener = Bun.listen<Pipe>({
      hostname: '127.0.0.1',
      port,
      socket: {
        async open(client) {
          clients.add(client);
          client.data = { pending: [] };
          const upstream = await Bun.connect({
            ...target,
            socket: {
              data: (_socket, chunk) => void client.write(chunk),
              close: () => void client.end(),
            },
          });
          client.data.upstream = upstream;
          for (const chunk of client.data.pending) upstream.write(chunk);
        },
        data(client, chunk) {
          if (client.data.upstream) client.data.upstream.write(chunk);
          else client.data.pending.push(new Uint8Array(chunk));
        },
        close(client) {
          clients.delete(client);
          client.data.upstream?.end();
        },
      },
    });
    return listener.port;
  };
  const port = listen(0);
  return {
    url: `redis://127.0.0.1:${port}`,
    down() {
      listener?.stop(true);
      listener = null;
      for (const client of clients) client.terminate();
      clients.clear();
    },
    up() {
      listen(port);
    },
  };
}
