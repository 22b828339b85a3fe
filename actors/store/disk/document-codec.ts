/**
 * A document as the text LMDB keeps: a flag, then JSON (value-codec.ts). The flag says
 * whether the JSON holds tags, so the actor documents that hold none are read back by
 * JSON.parse alone.
 */
import { decodeDocument, encodeDocument } from './value-codec.js';
import type { Doc } from '../embedded/paths.js';

export interface DocumentCodec {
  /** Throws TypeError for a value a document cannot hold, before anything is written. */
  encode(doc: unknown): string;
  decode(text: string): Doc;
}

const PLAIN = 'p';
const TAGGED = 't';

export const documentCodec: DocumentCodec = {
  encode(doc) {
    const { json, tagged } = encodeDocument(doc);
    return (tagged ? TAGGED : PLAIN) + json;
  },
  decode(text) {
    return decodeDocument(JSON.parse(text.slice(1)), text[0] === TAGGED) as Doc;
  },
};
