import type { Socket, TCPSocketListener } from 'bun';
import { freePort } from './server-process.ts';

/**
 * A TCP proxy between the service and PostgreSQL that a test breaks in the ways a database goes
 * away, and mends again, without touching the shared server:
 *
 * - `cut()`: every connection closed and the port refused (a stopped server);
 * - `reset()`: every connection closed, new ones still forwarded (a network blip mid-query);
 * - `refuseWith(sqlstate, message)`: every connection closed, and each new one answered with the
 *   server's own FATAL error packet at start-up (53300 too many clients, 57P03 starting up…);
 * - `breakTls()`: every connection closed, and a new one asking for TLS is told yes and then sent
 *   bytes that are no TLS (a broken TLS terminator: point the service at it with `sslmode=prefer`);
 * - `restore()`: forwarding again on the same port.
 */
export interface TcpProxy {
  /** `base` (a postgres:// URL) pointed at the proxy instead. */
  url: (base: string) => string;
  /** Connections the proxy has forwarded since it started. */
  opened: () => number;
  cut: () => Promise<void>;
  reset: () => void;
  refuseWith: (sqlstate: string, message: string) => void;
  breakTls: () => void;
  restore: () => Promise<void>;
  close: () => Promise<void>;
}

type Mode = { kind: 'forward' } | { kind: 'refuse'; packet: Uint8Array } | { kind: 'broken-tls' };

interface Link {
  upstream: Socket<Link> | null;
  /** What the client sent before the upstream connection opened. */
  early: Uint8Array[];
  /** Bytes each side could not take yet, written on its drain. */
  toClient: Uint8Array[];
  toUpstream: Uint8Array[];
  client: Socket<Link>;
  closed: boolean;
}

/** The 8-byte SSLRequest a PostgreSQL client sends first when it wants TLS. */
const SSL_REQUEST = [0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f];

export async function startTcpProxy(target: { hostname: string; port: number }): Promise<TcpProxy> {
  const port = await freePort();
  const links = new Set<Link>();
  let mode: Mode = { kind: 'forward' };
  let listener: TCPSocketListener<Link> | null = null;
  let opened = 0;

  const closeAll = () => {
    for (const link of links) end(link);
    links.clear();
  };
  const listen = () => {
    listener = Bun.listen<Link>({
      hostname: '127.0.0.1',
      port,
      socket: {
        open(client) {
          const link: Link = { upstream: null, early: [], toClient: [], toUpstream: [], client, closed: false };
          client.data = link;
          links.add(link);
          if (mode.kind === 'forward') connectUpstream(link, target, () => opened++);
        },
        data(client, bytes) {
          const link = client.data;
          if (mode.kind === 'refuse') return answerStartup(client, bytes, mode.packet);
          if (mode.kind === 'broken-tls') return answerTls(link, bytes);
          if (link.upstream) send(link.upstream, link.toUpstream, bytes);
          else link.early.push(new Uint8Array(bytes));
        },
        drain(client) {
          flush(client, client.data.toClient);
        },
        close(client) {
          end(client.data);
          links.delete(client.data);
        },
        error(client) {
          end(client.data);
        },
      },
    });
  };
  listen();

  const proxy: TcpProxy = {
    url: (base) => {
      const url = new URL(base);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.href;
    },
    opened: () => opened,
    cut: async () => {
      listener?.stop(true);
      listener = null;
      closeAll();
    },
    reset: closeAll,
    refuseWith: (sqlstate, message) => {
      mode = { kind: 'refuse', packet: errorPacket(sqlstate, message) };
      closeAll();
    },
    breakTls: () => {
      mode = { kind: 'broken-tls' };
      closeAll();
    },
    restore: async () => {
      mode = { kind: 'forward' };
      if (!listener) listen();
    },
    close: async () => {
      await proxy.cut();
    },
  };
  return proxy;
}

function connectUpstream(link: Link, target: { hostname: string; port: number }, counted: () => void): void {
  Bun.connect<Link>({
    hostname: target.hostname,
    port: target.port,
    data: link,
    socket: {
      open(upstream) {
        if (link.closed) {
          upstream.end();
          return;
        }
        counted();
        link.upstream = upstream;
        for (const bytes of link.early.splice(0)) send(upstream, link.toUpstream, bytes);
      },
      data(_upstream, bytes) {
        send(link.client, link.toClient, bytes);
      },
      drain(upstream) {
        flush(upstream, link.toUpstream);
      },
      close() {
        end(link);
      },
      error() {
        end(link);
      },
    },
  }).catch(() => end(link));
}

/** Writes what the socket takes now and keeps the rest, in order, for its drain. */
function send(socket: Socket<Link>, pending: Uint8Array[], bytes: Uint8Array): void {
  if (pending.length > 0) {
    pending.push(new Uint8Array(bytes));
    return;
  }
  const written = socket.write(bytes);
  if (written < bytes.length) pending.push(new Uint8Array(bytes.subarray(Math.max(0, written))));
}

function flush(socket: Socket<Link>, pending: Uint8Array[]): void {
  while (pending.length > 0) {
    const head = pending[0]!;
    const written = socket.write(head);
    if (written < head.length) {
      pending[0] = head.subarray(Math.max(0, written));
      return;
    }
    pending.shift();
  }
}

function end(link: Link | undefined): void {
  if (!link || link.closed) return;
  link.closed = true;
  link.client.end();
  link.upstream?.end();
}

const isSslRequest = (bytes: Uint8Array) => bytes.length === 8 && SSL_REQUEST.every((b, i) => bytes[i] === b);

/** As the server answers a client it cannot take: no TLS offered, then the FATAL error, then the close. */
function answerStartup(client: Socket<Link>, bytes: Uint8Array, packet: Uint8Array): void {
  if (isSslRequest(bytes)) {
    client.write('N');
    return;
  }
  client.write(packet);
  end(client.data);
}

function answerTls(link: Link, bytes: Uint8Array): void {
  if (isSslRequest(bytes)) {
    link.client.write('S');
    return;
  }
  // The ClientHello (or a plain start-up message): answered with bytes no TLS client accepts.
  link.client.write('this is not TLS\n');
  end(link);
}

/** PostgreSQL's ErrorResponse message: severity, SQLSTATE and message fields, as the server sends them. */
export function errorPacket(sqlstate: string, message: string): Uint8Array {
  const fields = `SFATAL\0VFATAL\0C${sqlstate}\0M${message}\0\0`;
  const body = new TextEncoder().encode(fields);
  const packet = new Uint8Array(1 + 4 + body.length);
  packet[0] = 'E'.charCodeAt(0);
  new DataView(packet.buffer).setInt32(1, 4 + body.length);
  packet.set(body, 5);
  return packet;
}
