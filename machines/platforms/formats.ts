/**
 * The rules each session-material format and every public param follow, written once:
 * the enclave builds its validators from them and provider templates publish them, so a
 * client can check what it captured before sealing it.
 */
import type { SessionFormat } from './definition.js';

export interface FormatRule {
  readonly description: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  /** A regular expression (JSON Schema dialect, no flags) the whole value matches. */
  readonly pattern?: string;
  /** For an object of headers: what each header name matches, compared in lower case. */
  readonly headerNamePattern?: string;
}

/** A header value as a client captured it: one line, so it cannot smuggle another header. */
const HEADER: FormatRule = {
  description: 'One header value as the platform’s page sent it: one line, 1 to 8192 characters',
  minLength: 1,
  maxLength: 8192,
  pattern: '^[^\\r\\n]*$',
};

/** Cash App's activity request: the one body the enclave replays, so a client cannot aim the replay elsewhere. */
export const CASHAPP_ACTIVITY_REQUEST = { activityScope: 'MY_ACTIVITY_WEB_V2', maxPageSize: 100 } as const;

export const SESSION_FORMATS: Readonly<Record<SessionFormat, FormatRule>> = {
  header: HEADER,
  bearer: { ...HEADER, description: 'An Authorization header value, "Bearer <token>"', pattern: '^Bearer \\S+$' },
  'replayable-headers': {
    description: 'An object of header name to one-line value; only x-*, accept-language and user-agent headers may be replayed',
    headerNamePattern: '^(x-[a-z0-9-]+|accept-language|user-agent)$',
  },
  'cashapp-activity-request': {
    description: `The JSON text of the activity page’s request body, canonical: { "activity_scope": "${CASHAPP_ACTIVITY_REQUEST.activityScope}", "page_size": 1 to ${CASHAPP_ACTIVITY_REQUEST.maxPageSize}, "request_context": {} (optional) } and nothing else`,
  },
};

/** A platform's payment or account id: what goes into a path, so nothing that could change the path. */
export const PARAM_RULE = {
  description: '1 to 128 letters, digits, dots, underscores, colons or hyphens',
  pattern: '^[A-Za-z0-9._:-]{1,128}$',
} as const;
