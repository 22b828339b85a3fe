/** Newline-delimited messages on a socket, as the store harness speaks them. */
import type { Socket } from 'node:net';

/** Calls `handle` with each complete non-empty line the socket delivers. */
export function onLines(socket: Socket, handle: (line: string) => void): void {
  let buffered = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf('\n');
      if (line.length > 0) handle(line);
    }
  });
}
