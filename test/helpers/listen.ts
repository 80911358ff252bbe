/** A test server on 127.0.0.1 at an ephemeral port, whose close() ends its open sockets too. */
import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface Listening {
  port: number;
  /** Destroys every open socket, then closes the server. */
  close(): Promise<void>;
}

export async function listenOnLoopback(server: Server): Promise<Listening> {
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, "close");
    },
  };
}
