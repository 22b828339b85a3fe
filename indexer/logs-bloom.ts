/**
 * The logs bloom of a block header (Ethereum yellow paper, 4.3.1): 2048 bits, where every
 * log's address and topics each set three bits, named by the low 11 bits of the first
 * three byte pairs of the item's keccak256. A block whose bloom lacks any of an item's
 * bits holds no log with that item; one that has all three may.
 */
import { hexToBytes, keccak256, type Hex } from 'viem';

const BLOOM_BYTES = 256;

export function bloomMayContain(bloom: Hex, item: Hex): boolean {
  const bits = hexToBytes(bloom);
  if (bits.length !== BLOOM_BYTES) throw new Error(`a logs bloom is ${BLOOM_BYTES} bytes, not ${bits.length}`);
  const hash = hexToBytes(keccak256(item));
  for (let pair = 0; pair < 6; pair += 2) {
    const bit = ((hash[pair]! << 8) | hash[pair + 1]!) & 2047;
    // Bit 0 is the lowest bit of the last byte: the bloom is one big-endian 2048-bit number.
    if ((bits[BLOOM_BYTES - 1 - (bit >> 3)]! & (1 << (bit & 7))) === 0) return false;
  }
  return true;
}
