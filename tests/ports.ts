import net from "node:net";

// Ports handed out in this process: parallel start-ups must never be given the same port (the OS may
// return a just-released port again, and two servers racing for it would leave a test talking to the
// wrong one).
const handedOut = new Set<number>();

/** A loopback port that nothing listens on right now and that this process has not handed out before. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = net.createServer();
      server.unref();
      server.on("error", reject);
      server.listen(0, "127.0.0.1", () => {
        const address = server.address();
        const chosen = typeof address === "object" && address ? address.port : 0;
        server.close(() => resolve(chosen));
      });
    });
    if (port && !handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error("no free loopback port found");
}
