/**
 * Free-form JSON a merchant keeps on a resource (`notes` on orders, `metadata` where
 * a document adds it): any JSON object, bounded in size and depth before anything is
 * stored. Every read, list row, webhook and search text carries it from then on, so
 * an unbounded one would make each of those slow or, nested deep enough, fail for good.
 */
import { z } from 'zod';
import { jsonByteLength, nestsDeeperThan } from '../json-limits.js';

/** Compact JSON in UTF-8, the object's own braces included. */
export const FREE_FORM_MAX_BYTES = 16 * 1024;
/** The object itself is level 1. */
export const FREE_FORM_MAX_DEPTH = 16;

export const freeFormObject = z
  .record(z.string(), z.unknown())
  .superRefine((value, ctx) => {
    if (nestsDeeperThan(value, FREE_FORM_MAX_DEPTH)) ctx.addIssue({ code: 'custom', message: `must nest at most ${FREE_FORM_MAX_DEPTH} levels` });
    else if (jsonByteLength(value) > FREE_FORM_MAX_BYTES) ctx.addIssue({ code: 'custom', message: `must be at most ${FREE_FORM_MAX_BYTES} bytes as JSON` });
  })
  .meta({ description: `Any JSON object, at most ${FREE_FORM_MAX_BYTES} bytes as compact UTF-8 JSON and ${FREE_FORM_MAX_DEPTH} levels deep` });
