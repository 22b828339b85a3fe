/**
 * The unit of a journal store's files, journals and snapshots alike: an 8-byte header
 * (payload length and CRC-32 of the payload, little-endian) and the payload. A frame
 * cut short or damaged (a torn write at a crash) fails its length or checksum, so a
 * reader stops there instead of reading half a record as a whole one.
 */
import { open } from 'node:fs/promises';
import { crc32 } from 'node:zlib';

const HEADER = 8;
/** Far above any document (MongoDB caps them at 16 MiB); a length beyond it is damage. */
const MAX_PAYLOAD = 256 * 1024 * 1024;
const READ_CHUNK = 8 * 1024 * 1024;

export interface FrameScan {
  /** Bytes from the start that are whole, intact frames. */
  validBytes: number;
  fileBytes: number;
}

/**
 * Calls `onFrame` with each intact frame's payload in order, and stops at the end of
 * the file or at the first frame that is cut short or fails its checksum. Reads in
 * chunks so a large file never sits in memory whole.
 */
export async function scanFrames(path: string, onFrame: (payload: string) => void): Promise<FrameScan> {
  const handle = await open(path, 'r');
  try {
    const fileBytes = (await handle.stat()).size;
    let buffer = Buffer.alloc(0);
    let bufferStart = 0; // file offset of buffer[0]
    let position = 0; // file offset of the next unread byte
    let at = 0; // offset in buffer of the next frame
    for (;;) {
      // Parse every whole frame the buffer holds.
      while (buffer.length - at >= HEADER) {
        const length = buffer.readUInt32LE(at);
        if (length > MAX_PAYLOAD) return { validBytes: bufferStart + at, fileBytes };
        if (buffer.length - at < HEADER + length) break;
        const payload = buffer.subarray(at + HEADER, at + HEADER + length);
        if (crc32(payload) !== buffer.readUInt32LE(at + 4)) return { validBytes: bufferStart + at, fileBytes };
        onFrame(payload.toString('utf8'));
        at += HEADER + length;
      }
      if (position >= fileBytes) return { validBytes: bufferStart + at, fileBytes };
      // Keep the unparsed tail and read more behind it, enough for the frame it starts.
      const tail = buffer.subarray(at);
      const needed = tail.length >= HEADER ? HEADER + tail.readUInt32LE(0) : HEADER;
      const size = Math.min(fileBytes - position, Math.max(READ_CHUNK, needed - tail.length));
      const next = Buffer.allocUnsafe(tail.length + size);
      tail.copy(next, 0);
      const { bytesRead } = await handle.read(next, tail.length, size, position);
      bufferStart += at;
      position += bytesRead;
      buffer = next.subarray(0, tail.length + bytesRead);
      at = 0;
      if (bytesRead === 0) return { validBytes: bufferStart, fileBytes };
    }
  } finally {
    await handle.close();
  }
}
