/**
 * Start and stop the `txcript serve` HTTP server: the app (app.ts) on
 * Node's http server through @hono/node-server, bound to 127.0.0.1 unless
 * told otherwise, with Node's header limit (16 KiB: larger headers get
 * 431) and timeouts that keep a slow client from holding a socket.
 * Throws on a failure to bind; prints nothing (the CLI prints the URL).
 */

import { createAdaptorServer } from "@hono/node-server";
import { describeCause, TxcriptError } from "../errors.js";
import { type AppOptions, createApp } from "./app.js";
import { hostPort, isWildcard, makeGuard } from "./security.js";

export interface ServeOptions extends Omit<AppOptions, "guard"> {
  host?: string | undefined;
  /** 0 picks a free port. */
  port?: number | undefined;
  /** A token to use instead of a fresh one (tests). */
  token?: string | undefined;
}

export interface Running {
  /** The URL to open (with the token, when one is needed for reads or writes). */
  url: string;
  /** The URL without the token. */
  base: string;
  port: number;
  token: string | undefined;
  close(): Promise<void>;
}

export async function startServer(options: ServeOptions): Promise<Running> {
  const host = options.host ?? "127.0.0.1";
  const server = createAdaptorServer({
    fetch: () => new Response(null, { status: 503 }),
    overrideGlobalObjects: false,
    serverOptions: { maxHeaderSize: 16 * 1024, requestTimeout: 60_000, headersTimeout: 20_000 },
  });
  await new Promise<void>((resolve, reject) => {
    const failed = (cause: unknown) =>
      reject(
        new TxcriptError(
          undefined,
          `cannot listen on ${hostPort(host, options.port ?? 0)}: ${describeCause(cause)}`,
          {
            cause,
          },
        ),
      );
    server.once("error", failed);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", failed);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const guard = makeGuard({ host, port, allowWrite: options.allowWrite, token: options.token });
  const app = createApp({ ...options, guard });
  const { getRequestListener } = await import("@hono/node-server");
  server.removeAllListeners("request");
  server.on("request", getRequestListener(app.fetch, { overrideGlobalObjects: false }));
  const shown = isWildcard(host) ? "127.0.0.1" : host;
  const base = `http://${hostPort(shown, port)}/`;
  return {
    url: guard.token !== undefined ? `${base}?token=${guard.token}` : base,
    base,
    port,
    token: guard.token,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ("closeAllConnections" in server) server.closeAllConnections();
      }),
  };
}
