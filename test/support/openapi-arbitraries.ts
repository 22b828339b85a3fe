/**
 * fast-check arbitraries read from the gateway's OpenAPI 3.1 document (JSON Schema
 * 2020-12 as zod-openapi writes it), for fuzzing request bodies, query strings and
 * path parameters with values a schema accepts and values it ought to refuse.
 *
 * A schema is first compiled into a small tree of `Shape`s, with `$ref`, `allOf`,
 * `anyOf`/`oneOf` and type arrays folded in; the generators then walk that tree.
 * Compilation throws on any keyword, type or format it does not know, naming it and
 * where it is, so a new construct in the document is noticed instead of being fuzzed
 * as if it were absent. Annotations (`description`, `example`, `default`, …) are
 * ignored.
 *
 * Readings worth knowing:
 * - `oneOf` is generated like `anyOf`: zod's unions have disjoint branches.
 * - `allOf` is read as zod's intersection of objects: the merged object has the
 *   properties of every part and is closed when any part is. (Strict JSON Schema would
 *   make two closed parts reject each other's properties, which is not what the
 *   gateway means by it.)
 * - `pattern` wins over `format` when both are present: zod writes both, and the
 *   pattern is what it checks.
 */
import fc from 'fast-check';
import type { WeightedArbitrary } from 'fast-check';

/** The part of an OpenAPI document this module reads. */
export interface OpenApiDocument {
  readonly components?: { readonly schemas?: Readonly<Record<string, unknown>> };
}

export interface SchemaOptions {
  /** Where the schema sits in the document, for error messages; '#' by default. */
  readonly path?: string;
}

export interface PathParameterOptions extends SchemaOptions {
  /** Values to use as the valid ones, such as ids of resources that exist; encoded like generated ones. */
  readonly valid?: fc.Arbitrary<string>;
}

/** Values valid against `schema`, with `$ref`s resolved against `document.components.schemas`. */
export function validArbitrary(schema: unknown, document: OpenApiDocument, options: SchemaOptions = {}): fc.Arbitrary<unknown> {
  return valid(new Compiler(document).compile(schema, options.path ?? '#'));
}

/**
 * Values that mostly violate `schema` while staying close to it, so that they get past
 * JSON parsing and reach validation: wrong types, strings that break the pattern,
 * length or format, numbers out of range or fractional where an integer is due,
 * arrays of the wrong length or with a bad item, objects with a property made hostile,
 * a required one dropped or an unknown one (`__proto__`, `constructor`, …) added, and
 * now and then the whole value buried 20 to 60 arrays and objects deep.
 *
 * Every value survives `JSON.parse(JSON.stringify(value))` except that -0, produced
 * on purpose among hostile numbers, comes back as 0.
 */
export function hostileArbitrary(schema: unknown, document: OpenApiDocument, options: SchemaOptions = {}): fc.Arbitrary<unknown> {
  return hostile(new Compiler(document).compile(schema, options.path ?? '#'));
}

/**
 * Path segments for a parameter of `schema`: three in four valid (from the schema's
 * pattern, or letters, digits, '_' and '-' when it has none, or `options.valid`), the
 * rest odd: '..', '.', '%2e%2e', 'a%2Fb', '%00', '%', '%zz', a 300-character id,
 * encoded unicode, the valid value upper-cased, with a trailing slash, or with one
 * character percent-encoded.
 *
 * Each value is a RAW segment, already percent-encoded where needed, to be spliced
 * into the request line as it is: do not encode it again, or '%2e%2e' stops being a
 * dot-dot in disguise.
 */
export function pathParameterArbitrary(schema: unknown, document: OpenApiDocument, options: PathParameterOptions = {}): fc.Arbitrary<string> {
  const path = options.path ?? '#';
  const decoded = options.valid ?? segmentText(new Compiler(document).compile(schema, path), path);
  return fc.oneof({ weight: 3, arbitrary: decoded.map(encodeSegment) }, { weight: 1, arbitrary: oddSegment(decoded) });
}

/**
 * Query strings for an OpenAPI operation's `parameters` (its query ones; the others are
 * skipped), as a record of DECODED values for URLSearchParams or the like to encode: a
 * string, or an array of strings for a key repeated. Each parameter is absent, valid
 * (integers as decimal strings, enum members, pattern matches) or hostile; required
 * ones are sometimes dropped, and unknown keys, `__proto__` among them, sometimes added.
 */
export function queryArbitrary(parameters: readonly unknown[], document: OpenApiDocument): fc.Arbitrary<Record<string, string | string[]>> {
  const compiler = new Compiler(document);
  const query = parameters.flatMap((parameter, index) => {
    const where = `parameters/${index}`;
    if (!isRecord(parameter)) throw new Error(`${where}: expected a parameter object`);
    if ('$ref' in parameter) throw new Error(`Unsupported $ref at ${where}: only inline parameters are read`);
    if (parameter.in !== 'query') return [];
    for (const key of Object.keys(parameter)) {
      if (!PARAMETER_KEYWORDS.has(key)) throw new Error(`Unsupported parameter keyword "${key}" at ${where}`);
    }
    if (typeof parameter.name !== 'string') throw new Error(`${where}: the parameter has no name`);
    const shape = compiler.compile(parameter.schema, `${where}/schema`);
    return [{ name: parameter.name, required: parameter.required === true, value: queryValue(shape, `${where}/schema`) }];
  });
  const entries = query.map(({ name, required, value }) =>
    fc
      .tuple(required ? fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }) : fc.boolean(), value)
      .map(([present, text]) => (present ? [[name, text] as const] : [])),
  );
  const unknown = fc.array(fc.tuple(unknownQueryKey(query.map((parameter) => parameter.name)), unknownQueryValue), { maxLength: 2 });
  return fc.tuple(fc.tuple(...entries), unknown).map(([known, extra]) => {
    const record: Record<string, string | string[]> = {};
    for (const [name, text] of [...known.flat(), ...extra]) {
      // A key already there is repeated, as a client appending it twice would.
      define(record, name, Object.hasOwn(record, name) ? [record[name]!, text].flat() : text);
    }
    return record;
  });
}

// ---------------------------------------------------------------------------
// Compiling schemas into shapes

type JsonKind = 'string' | 'number' | 'boolean' | 'null' | 'array' | 'object';
const JSON_KINDS: readonly JsonKind[] = ['string', 'number', 'boolean', 'null', 'array', 'object'];

type Format = 'uri' | 'email' | 'date-time';
const FORMATS: ReadonlySet<string> = new Set<Format>(['uri', 'email', 'date-time']);

interface Bound {
  readonly value: number;
  readonly exclusive: boolean;
}

interface StringShape {
  readonly kind: 'string';
  readonly pattern?: string;
  readonly minLength: number;
  readonly maxLength?: number;
  readonly format?: Format;
}
interface NumberShape {
  readonly kind: 'number';
  readonly integer: boolean;
  readonly minimum?: Bound;
  readonly maximum?: Bound;
}
interface ArrayShape {
  readonly kind: 'array';
  readonly items: Shape;
  readonly minItems: number;
  readonly maxItems?: number;
}
interface ObjectShape {
  readonly kind: 'object';
  readonly properties: ReadonlyMap<string, Shape>;
  readonly required: readonly string[];
  /** The schema of properties not listed, or false when there may be none. */
  readonly additional: Shape | false;
  readonly propertyNames?: Shape;
}
type Shape =
  | { readonly kind: 'any' }
  | { readonly kind: 'enum'; readonly values: readonly unknown[] }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'null' }
  | { readonly kind: 'union'; readonly branches: readonly Shape[] }
  | StringShape
  | NumberShape
  | ArrayShape
  | ObjectShape;

const ANY: Shape = { kind: 'any' };

/** Keywords that change nothing about which values are valid. `$id` only names a schema; references are resolved against the document. */
const IGNORED = ['$schema', '$id', '$comment', 'title', 'description', 'default', 'example', 'examples', 'deprecated', 'readOnly', 'writeOnly'];
/** The keywords of each type, also used to tell the type of a part that has none. */
const TYPE_KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  string: ['pattern', 'minLength', 'maxLength', 'format'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'],
  array: ['items', 'minItems', 'maxItems'],
  object: ['properties', 'required', 'additionalProperties', 'propertyNames'],
};
const SUPPORTED: ReadonlySet<string> = new Set([
  ...IGNORED,
  ...Object.values(TYPE_KEYWORDS).flat(),
  'type',
  'enum',
  'const',
  '$ref',
  'allOf',
  'anyOf',
  'oneOf',
]);
/** Query parameters are read in OpenAPI's default style (form, exploded); anything else throws. */
const PARAMETER_KEYWORDS: ReadonlySet<string> = new Set(['in', 'name', 'schema', 'required', 'description', 'deprecated', 'example', 'examples']);

class Compiler {
  private readonly refs = new Map<string, Shape>();
  private readonly resolving = new Set<string>();

  constructor(private readonly document: OpenApiDocument) {}

  compile(schema: unknown, path: string): Shape {
    if (schema === true) return ANY;
    if (!isRecord(schema)) throw new Error(`${path}: expected a schema object, got ${JSON.stringify(schema)}`);
    for (const key of Object.keys(schema)) {
      if (!SUPPORTED.has(key)) throw new Error(`Unsupported JSON Schema keyword "${key}" at ${path}`);
    }
    // A schema is the intersection of its own keywords and of what it references or combines.
    let shape: Shape | undefined = this.own(schema, path);
    if (schema.$ref !== undefined) shape = intersect(shape, this.ref(schema.$ref, path), path);
    list(schema.allOf, `${path}/allOf`).forEach((part, i) => {
      shape = intersect(shape, this.compile(part, `${path}/allOf/${i}`), path);
    });
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      if (schema[keyword] === undefined) continue;
      const branches = list(schema[keyword], `${path}/${keyword}`).map((branch, i) => this.compile(branch, `${path}/${keyword}/${i}`));
      shape = intersect(shape, union(branches), path);
    }
    if (shape === undefined) throw new Error(`${path}: no value satisfies this schema`);
    return shape;
  }

  private own(schema: Record<string, unknown>, path: string): Shape | undefined {
    if ('const' in schema) return { kind: 'enum', values: [schema.const] };
    if (schema.enum !== undefined) {
      const values = list(schema.enum, `${path}/enum`);
      if (values.length === 0) throw new Error(`${path}: empty enum`);
      return { kind: 'enum', values };
    }
    const types = schema.type === undefined ? impliedType(schema, path) : typeof schema.type === 'string' ? [schema.type] : list(schema.type, `${path}/type`);
    if (types.length === 0) return ANY;
    return union(types.map((type) => this.typed(schema, type, path)));
  }

  private typed(schema: Record<string, unknown>, type: unknown, path: string): Shape {
    switch (type) {
      case 'string': {
        const format = optional(schema.format, 'string', `${path}/format`);
        if (format !== undefined && !FORMATS.has(format)) throw new Error(`Unsupported format "${format}" at ${path}`);
        const pattern = optional(schema.pattern, 'string', `${path}/pattern`);
        if (pattern !== undefined) new RegExp(pattern); // a pattern JavaScript cannot read throws here, not mid-run
        return {
          kind: 'string',
          pattern,
          minLength: count(schema.minLength, `${path}/minLength`) ?? 0,
          maxLength: count(schema.maxLength, `${path}/maxLength`),
          format: format as Format | undefined,
        };
      }
      case 'integer':
      case 'number':
        return {
          kind: 'number',
          integer: type === 'integer',
          minimum: bound(schema.minimum, schema.exclusiveMinimum, 1, path),
          maximum: bound(schema.maximum, schema.exclusiveMaximum, -1, path),
        };
      case 'boolean':
      case 'null':
        return { kind: type };
      case 'array':
        return {
          kind: 'array',
          items: schema.items === undefined ? ANY : this.compile(schema.items, `${path}/items`),
          minItems: count(schema.minItems, `${path}/minItems`) ?? 0,
          maxItems: count(schema.maxItems, `${path}/maxItems`),
        };
      case 'object':
        return this.object(schema, path);
      default:
        throw new Error(`Unsupported type ${JSON.stringify(type)} at ${path}`);
    }
  }

  private object(schema: Record<string, unknown>, path: string): ObjectShape {
    const properties = new Map<string, Shape>();
    if (schema.properties !== undefined) {
      if (!isRecord(schema.properties)) throw new Error(`${path}/properties: expected an object`);
      for (const [key, property] of Object.entries(schema.properties)) {
        properties.set(key, this.compile(property, `${path}/properties/${pointer(key)}`));
      }
    }
    const additional =
      schema.additionalProperties === false
        ? false
        : schema.additionalProperties === undefined
          ? ANY
          : this.compile(schema.additionalProperties, `${path}/additionalProperties`);
    const names = schema.propertyNames === undefined ? ANY : this.compile(schema.propertyNames, `${path}/propertyNames`);
    if (!kindsOf(names).has('string')) throw new Error(`${path}/propertyNames: property names are strings, but this schema admits none`);
    const required = list(schema.required ?? [], `${path}/required`).map((key) => optional(key, 'string', `${path}/required`)!);
    // Required keys that are not listed (a record over an enum) take the additional schema.
    for (const key of required) {
      if (properties.has(key)) continue;
      if (additional === false) throw new Error(`${path}: "${key}" is required but not a property, and additionalProperties is false`);
      properties.set(key, additional);
    }
    return { kind: 'object', properties, required, additional, propertyNames: names.kind === 'any' ? undefined : names };
  }

  private ref(ref: unknown, path: string): Shape {
    const match = typeof ref === 'string' ? /^#\/components\/schemas\/([^/]+)$/.exec(ref) : null;
    if (match === null) throw new Error(`Unsupported $ref ${JSON.stringify(ref)} at ${path}: only #/components/schemas/<Name> is resolved`);
    const name = unpointer(match[1]!);
    const cached = this.refs.get(name);
    if (cached !== undefined) return cached;
    // A schema inside itself (the state charts' nested states) ends at its first level: any value
    // stands for the deeper ones. Only responses recurse; a request body that did would be fuzzed shallowly.
    if (this.resolving.has(name)) return ANY;
    const schemas = this.document.components?.schemas;
    if (schemas === undefined || !Object.hasOwn(schemas, name)) throw new Error(`$ref ${ref as string} at ${path} names no schema in components.schemas`);
    this.resolving.add(name);
    try {
      const shape = this.compile(schemas[name], ref as string);
      this.refs.set(name, shape);
      return shape;
    } finally {
      this.resolving.delete(name);
    }
  }
}

/** The type a part without `type` constrains, told by its keywords (zod writes `allOf: [{ pattern }]`); none when it has no such keywords. */
function impliedType(schema: Record<string, unknown>, path: string): string[] {
  const types = Object.keys(TYPE_KEYWORDS).filter((type) => TYPE_KEYWORDS[type]!.some((keyword) => keyword in schema));
  if (types.length > 1) throw new Error(`${path}: keywords of several types (${types.join(', ')}) without a "type"`);
  return types;
}

/**
 * The shape admitting the values both shapes admit, or undefined when there are none
 * (such as a null branch meeting `type: object`). Combinations this module cannot
 * generate for, like two different patterns, throw.
 */
function intersect(a: Shape | undefined, b: Shape | undefined, path: string): Shape | undefined {
  if (a === undefined || b === undefined) return undefined;
  if (a.kind === 'any') return b;
  if (b.kind === 'any') return a;
  if (a.kind === 'union') return union(a.branches.map((branch) => intersect(branch, b, path)));
  if (b.kind === 'union') return union(b.branches.map((branch) => intersect(a, branch, path)));
  if (a.kind === 'enum') return narrowEnum(a.values, b, path);
  if (b.kind === 'enum') return narrowEnum(b.values, a, path);
  if (a.kind !== b.kind) return undefined;
  switch (a.kind) {
    case 'string':
      return intersectStrings(a, b as StringShape, path);
    case 'number':
      return intersectNumbers(a, b as NumberShape);
    case 'array': {
      const other = b as ArrayShape;
      const items = intersect(a.items, other.items, `${path}/items`);
      if (items === undefined) throw new Error(`${path}: allOf leaves array items no possible value`);
      return { kind: 'array', items, minItems: Math.max(a.minItems, other.minItems), maxItems: lesser(a.maxItems, other.maxItems) };
    }
    case 'object':
      return intersectObjects(a, b as ObjectShape, path);
    default:
      return a;
  }
}

function intersectStrings(a: StringShape, b: StringShape, path: string): StringShape {
  for (const keyword of ['pattern', 'format'] as const) {
    if (a[keyword] !== undefined && b[keyword] !== undefined && a[keyword] !== b[keyword]) {
      throw new Error(`Unsupported allOf at ${path}: two different values of "${keyword}" (${a[keyword]}, ${b[keyword]})`);
    }
  }
  return {
    kind: 'string',
    pattern: a.pattern ?? b.pattern,
    format: a.format ?? b.format,
    minLength: Math.max(a.minLength, b.minLength),
    maxLength: lesser(a.maxLength, b.maxLength),
  };
}

function intersectNumbers(a: NumberShape, b: NumberShape): NumberShape {
  const tighter = (x: Bound | undefined, y: Bound | undefined, sign: 1 | -1): Bound | undefined => {
    if (x === undefined || y === undefined) return x ?? y;
    if (x.value === y.value) return { value: x.value, exclusive: x.exclusive || y.exclusive };
    return sign * x.value > sign * y.value ? x : y;
  };
  return { kind: 'number', integer: a.integer || b.integer, minimum: tighter(a.minimum, b.minimum, 1), maximum: tighter(a.maximum, b.maximum, -1) };
}

function intersectObjects(a: ObjectShape, b: ObjectShape, path: string): ObjectShape {
  const properties = new Map(a.properties);
  for (const [key, shape] of b.properties) {
    const previous = properties.get(key);
    const merged = previous === undefined ? shape : intersect(previous, shape, `${path}/properties/${pointer(key)}`);
    if (merged === undefined) throw new Error(`${path}: allOf leaves property "${key}" no possible value`);
    properties.set(key, merged);
  }
  let additional: Shape | false = false;
  if (a.additional !== false && b.additional !== false) {
    const merged = intersect(a.additional, b.additional, `${path}/additionalProperties`);
    additional = merged ?? false;
  }
  const names = intersect(a.propertyNames ?? ANY, b.propertyNames ?? ANY, `${path}/propertyNames`);
  return {
    kind: 'object',
    properties,
    required: [...new Set([...a.required, ...b.required])],
    additional,
    propertyNames: names === undefined || names.kind === 'any' ? undefined : names,
  };
}

/** Enum values of the other shape's type; an enum meeting further constraints (a pattern, bounds) is beyond this module. */
function narrowEnum(values: readonly unknown[], other: Shape, path: string): Shape | undefined {
  let kept: unknown[];
  if (other.kind === 'enum') {
    const theirs = new Set(other.values.map((value) => JSON.stringify(value)));
    kept = values.filter((value) => theirs.has(JSON.stringify(value)));
  } else {
    if (!typeOnly(other)) throw new Error(`Unsupported combination at ${path}: an enum with ${other.kind} constraints`);
    kept = values.filter((value) => jsonKind(value) === other.kind && (other.kind !== 'number' || !other.integer || Number.isInteger(value)));
  }
  return kept.length === 0 ? undefined : { kind: 'enum', values: kept };
}

/** Whether a shape says no more than its type (an integer counts as a type). */
function typeOnly(shape: Shape): boolean {
  switch (shape.kind) {
    case 'string':
      return !breakable(shape);
    case 'number':
      return shape.minimum === undefined && shape.maximum === undefined;
    case 'boolean':
    case 'null':
      return true;
    default:
      return false;
  }
}

/** A union of the defined branches, flattened; undefined when none is left. */
function union(branches: readonly (Shape | undefined)[]): Shape | undefined {
  const flat = branches.flatMap((branch) => (branch === undefined ? [] : branch.kind === 'union' ? branch.branches : [branch]));
  if (flat.some((branch) => branch.kind === 'any')) return ANY;
  if (flat.length <= 1) return flat[0];
  return { kind: 'union', branches: flat };
}

function bound(inclusive: unknown, exclusive: unknown, sign: 1 | -1, path: string): Bound | undefined {
  const keyword = sign === 1 ? 'inimum' : 'aximum';
  const plain = optional(inclusive, 'number', `${path}/m${keyword}`);
  const strict = optional(exclusive, 'number', `${path}/exclusiveM${keyword}`);
  if (strict !== undefined && (plain === undefined || sign * strict >= sign * plain)) return { value: strict, exclusive: true };
  return plain === undefined ? undefined : { value: plain, exclusive: false };
}

function optional(value: unknown, type: 'string', path: string): string | undefined;
function optional(value: unknown, type: 'number', path: string): number | undefined;
function optional(value: unknown, type: 'string' | 'number', path: string): string | number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== type || (type === 'number' && !Number.isFinite(value))) throw new Error(`${path}: expected a ${type}, got ${JSON.stringify(value)}`);
  return value as string | number;
}

function count(value: unknown, path: string): number | undefined {
  const n = optional(value, 'number', path);
  if (n !== undefined && (!Number.isInteger(n) || n < 0)) throw new Error(`${path}: expected a non-negative integer, got ${n}`);
  return n;
}

function list(value: unknown, path: string): readonly unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new Error(`${path}: expected an array`);
  return value;
}

function lesser(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function unpointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function jsonKind(value: unknown): JsonKind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value as JsonKind;
}

function kindsOf(shape: Shape): ReadonlySet<JsonKind> {
  switch (shape.kind) {
    case 'any':
      return new Set(JSON_KINDS);
    case 'enum':
      return new Set(shape.values.map(jsonKind));
    case 'union':
      return new Set(shape.branches.flatMap((branch) => [...kindsOf(branch)]));
    default:
      return new Set([shape.kind]);
  }
}

// ---------------------------------------------------------------------------
// Valid values

/** Arbitraries are immutable, so each shape builds its own once; hostile ones reuse the valid ones often. */
const validCache = new WeakMap<Shape, fc.Arbitrary<unknown>>();
const hostileCache = new WeakMap<Shape, fc.Arbitrary<unknown>>();

function cached(cache: WeakMap<Shape, fc.Arbitrary<unknown>>, shape: Shape, build: (shape: Shape) => fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  let arbitrary = cache.get(shape);
  if (arbitrary === undefined) {
    arbitrary = build(shape);
    cache.set(shape, arbitrary);
  }
  return arbitrary;
}

/** Small JSON values; the round trip turns the -0 that jsonValue can produce into 0. */
const anyJson: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.parse(JSON.stringify(value)) as unknown);

function valid(shape: Shape): fc.Arbitrary<unknown> {
  return cached(validCache, shape, (s) => {
    switch (s.kind) {
      case 'any':
        return anyJson;
      case 'enum':
        return fc.constantFrom(...s.values);
      case 'string':
        return validString(s);
      case 'number':
        return validNumber(s);
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array':
        return fc.array(valid(s.items), { minLength: s.minItems, maxLength: s.maxItems });
      case 'object':
        return validObject(s);
      case 'union':
        return fc.oneof(...s.branches.map(valid));
    }
  });
}

function validText(shape: StringShape): fc.Arbitrary<string> {
  return valid(shape) as fc.Arbitrary<string>;
}

/** Addresses any validator takes; fc.emailAddress() writes local parts that zod's email check refuses. */
const SIMPLE_EMAIL = /^[a-z0-9]{1,12}(\.[a-z0-9]{1,8})?@[a-z0-9]{1,12}\.[a-z]{2,6}$/;
const isoDateTime = fc
  .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true })
  .map((date) => date.toISOString());

function validString(shape: StringShape): fc.Arbitrary<string> {
  const { pattern, format, minLength: min, maxLength: max } = shape;
  const source = stringSource(shape);
  if (source === undefined) return plainString(min, max);
  const made = fitted(source, min, max);
  if (made === undefined)
    throw new Error(`Cannot generate strings of ${pattern ? `pattern /${pattern}/` : `format ${format}`} with length in [${min}, ${max ?? '∞'}]`);
  return made;
}

/** How strings of the shape's pattern or format are made at a given size; undefined for a plain string. */
function stringSource(shape: StringShape): ((size: Size) => fc.Arbitrary<string>) | undefined {
  const { pattern, maxLength } = shape;
  if (pattern !== undefined) return (size) => fc.stringMatching(new RegExp(pattern), { size, maxLength });
  switch (shape.format) {
    case 'uri':
      return (size) => fc.webUrl({ size, withQueryParameters: true, withFragments: true });
    case 'email':
      return (size) => fc.stringMatching(SIMPLE_EMAIL, { size, maxLength });
    case 'date-time':
      return () => isoDateTime;
    case undefined:
      return undefined;
  }
}

/** Mostly ASCII, a quarter unicode graphemes (when they can fit at all), so that valid text is not only ASCII. */
function plainString(min: number, max: number | undefined): fc.Arbitrary<string> {
  const ascii = fc.string({ minLength: min, maxLength: max });
  const unicode = fitted((size) => fc.string({ unit: 'grapheme', minLength: min, maxLength: max, size }), min, max);
  return unicode === undefined ? ascii : fc.oneof({ weight: 3, arbitrary: ascii }, { weight: 1, arbitrary: unicode });
}

/** Sizes to try, the default first. */
const SIZES = ['small', 'xsmall', 'medium', 'large'] as const;
type Size = (typeof SIZES)[number];

/**
 * `make(size)` filtered to the length bounds, at the first size where a quarter of a
 * probe sample fits, or undefined when none does: a filter that rejects nearly
 * everything would stall generation. The minimum counts code points (JSON Schema) and
 * the maximum UTF-16 units (zod, JavaScript), so a value fits under either reading.
 */
function fitted(make: (size: Size) => fc.Arbitrary<string>, min: number, max: number | undefined): fc.Arbitrary<string> | undefined {
  if (min === 0 && max === undefined) return make('small');
  const fits = (text: string) => [...text].length >= min && (max === undefined || text.length <= max);
  for (const size of SIZES) {
    const arbitrary = make(size);
    if (fc.sample(arbitrary, { numRuns: 40, seed: 1 }).filter(fits).length >= 10) return arbitrary.filter(fits);
  }
  return undefined;
}

function validNumber(shape: NumberShape): fc.Arbitrary<number> {
  const { minimum, maximum } = shape;
  if (shape.integer) {
    // zod's int() takes safe integers only, whatever the bounds say.
    const from = Math.max(
      Number.MIN_SAFE_INTEGER,
      minimum === undefined ? -Infinity : minimum.exclusive ? Math.floor(minimum.value) + 1 : Math.ceil(minimum.value),
    );
    const to = Math.min(
      Number.MAX_SAFE_INTEGER,
      maximum === undefined ? Infinity : maximum.exclusive ? Math.ceil(maximum.value) - 1 : Math.floor(maximum.value),
    );
    if (from > to) throw new Error(`No safe integer lies between ${minimum?.value} and ${maximum?.value}`);
    return fc.bigInt(BigInt(from), BigInt(to)).map(Number);
  }
  return fc
    .double({
      min: minimum?.value,
      max: maximum?.value,
      minExcluded: minimum?.exclusive,
      maxExcluded: maximum?.exclusive,
      noNaN: true,
      noDefaultInfinity: true,
    })
    .map((n) => (n === 0 ? 0 : n)); // -0 would come back from JSON as 0
}

/** Keys that reach Object.prototype when an object is merged carelessly. */
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'];

function validObject(shape: ObjectShape): fc.Arbitrary<Record<string, unknown>> {
  const listed = [...shape.properties].map(([key, property]) =>
    fc
      .tuple(shape.required.includes(key) ? fc.constant(true) : fc.boolean(), valid(property))
      .map(([present, value]) => (present ? [[key, value] as const] : [])),
  );
  const keys = shape.propertyNames === undefined ? fc.string({ maxLength: 12 }) : valid(shape.propertyNames).map(String);
  const extra = shape.additional === false ? fc.constant([]) : fc.array(fc.tuple(keys, valid(shape.additional)), { maxLength: 3 });
  return fc.tuple(fc.tuple(...listed), extra).map(([properties, extras]) => {
    const object: Record<string, unknown> = {};
    for (const [key, value] of properties.flat()) define(object, key, value);
    for (const [key, value] of extras) {
      if (!shape.properties.has(key) && !Object.hasOwn(object, key) && !PROTOTYPE_KEYS.includes(key)) define(object, key, value);
    }
    return object;
  });
}

/** Sets an own property even for '__proto__', which plain assignment would turn into a prototype change. */
function define(object: object, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

// ---------------------------------------------------------------------------
// Hostile values

function hostile(shape: Shape): fc.Arbitrary<unknown> {
  return cached(hostileCache, shape, (s) => {
    const options: WeightedArbitrary<unknown>[] = [
      { weight: breakable(s) ? 6 : 2, arbitrary: violations(s) },
      { weight: 1, arbitrary: deeplyNested(valid(s)) },
    ];
    const wrong = wrongType(kindsOf(s));
    if (wrong !== undefined) options.push({ weight: 2, arbitrary: wrong });
    return fc.oneof(...options);
  });
}

/** Whether values of the shape's own type can break it; an unconstrained string cannot, so wrong types weigh more there. */
function breakable(shape: Shape): boolean {
  switch (shape.kind) {
    case 'any':
      return false;
    case 'string':
      return shape.pattern !== undefined || shape.format !== undefined || shape.minLength > 0 || shape.maxLength !== undefined;
    case 'number':
      return shape.integer || shape.minimum !== undefined || shape.maximum !== undefined;
    case 'object':
      // A record of unconstrained values takes any object.
      return (
        shape.properties.size > 0 ||
        shape.additional === false ||
        breakable(shape.additional) ||
        (shape.propertyNames !== undefined && breakable(shape.propertyNames))
      );
    default:
      return true;
  }
}

/** Values of (mostly) the shape's own type that break one of its constraints. */
function violations(shape: Shape): fc.Arbitrary<unknown> {
  switch (shape.kind) {
    case 'any':
      return fc.oneof(deeplyNested(anyJson), fc.constantFrom(...POLLUTERS), longString, fc.constantFrom(...EDGE_NUMBERS));
    case 'enum':
      return enumViolations(shape.values);
    case 'string':
      return stringViolations(shape);
    case 'number':
      return numberViolations(shape);
    case 'boolean':
      return fc.constantFrom('true', 'false', 0, 1, 'yes', '');
    case 'null':
      return fc.constantFrom('null', 0, '', false, 'undefined');
    case 'array':
      return arrayViolations(shape);
    case 'object':
      return objectViolations(shape);
    case 'union': {
      // Each branch's own kind of breakage; wrong types are chosen against the whole union.
      // A boolean's or null's breakage is a wrong type, which may be another branch's type.
      const breakables = shape.branches.filter((branch) => branch.kind !== 'boolean' && branch.kind !== 'null');
      return fc.oneof(...(breakables.length > 0 ? breakables : shape.branches).map(violations));
    }
  }
}

/** Close but wrong-typed values for each kind the schema does not admit. */
const WRONG_TYPE: Readonly<Record<JsonKind, fc.Arbitrary<unknown>>> = {
  string: fc.constantFrom('', '0', '1', '1e3', 'true', 'null', '[]', '{}'),
  number: fc.constantFrom(0, 1, -1, 1.5, 1e21),
  boolean: fc.boolean(),
  null: fc.constant(null),
  array: fc.constantFrom([], [null], ['a', 1]),
  object: fc.constantFrom({}, { 0: 'a' }, { length: 1 }),
};

function wrongType(admitted: ReadonlySet<JsonKind>): fc.Arbitrary<unknown> | undefined {
  const others = JSON_KINDS.filter((kind) => !admitted.has(kind)).map((kind) => WRONG_TYPE[kind]);
  return others.length === 0 ? undefined : fc.oneof(...others);
}

/** `leaf` inside 20 to 60 arrays and objects, for parsers, validators and loggers that recurse. */
function deeplyNested(leaf: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc
    .tuple(fc.array(fc.boolean(), { minLength: 20, maxLength: 60 }), leaf)
    .map(([wrappers, value]) => wrappers.reduce<unknown>((inner, asArray) => (asArray ? [inner] : { a: inner }), value));
}

/** Objects whose own keys pollute a prototype when merged; JSON.parse keeps `__proto__` as an own key. */
const POLLUTERS: readonly unknown[] = [JSON.parse('{"__proto__":{"polluted":true}}'), JSON.parse('{"constructor":{"prototype":{"polluted":true}}}')];

const EDGE_NUMBERS = [1e308, -1e308, 5e-324, Number.MAX_SAFE_INTEGER + 2, -0];

/** Strings that trip up decoders, normalisers, logs and databases. */
const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0001\u0008\u001b\u007f',
  '\t\r\n',
  '\u200f\u202eabc', // right-to-left mark and override
  '\u200b', // zero-width space
  '\ufeff',
  '\ud800', // a lone surrogate: JSON.stringify escapes it
  '😀',
  '👩‍👩‍👧‍👦',
  '１２３', // fullwidth digits
  'e\u0301',
  'İ',
  'null',
  'undefined',
  'NaN',
  '<script>alert(1)</script>',
  "' OR '1'='1",
  '{"$gt":""}',
  '../../etc/passwd',
  '%00',
  '${7*7}',
  '__proto__',
];

const longString = fc
  .tuple(fc.integer({ min: 1000, max: 4000 }), fc.constantFrom('a', '9', 'é', '😀', '\u0000', ' '))
  .map(([length, unit]) => unit.repeat(length));

const unicodeNoise = fc.oneof(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 16 }), fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 16 }));

/** For a pattern taking decimal amounts: values at the edges of what a parser of amounts must refuse or handle. */
const EXTREME_AMOUNTS = [
  '0',
  '0.0000001',
  '1'.repeat(60),
  '1234567890123456789012345678901234567890',
  '1e10',
  '-1',
  ' 1',
  '1 ',
  '１',
  '1.',
  '.5',
  '99999999999999999999.999999',
  '0x10',
  '1_000',
  'Infinity',
  'NaN',
];

const BAD_FORMATS: Readonly<Record<Format, readonly string[]>> = {
  uri: [
    'javascript:alert(1)',
    'ftp://example.com/',
    'file:///etc/passwd',
    'data:text/html,<b>x</b>',
    'mailto:a@example.com',
    'http://',
    '//example.com',
    'example.com',
    'http://exa mple.com',
    'http://[::1',
    'https://example.com:99999/',
    'http://169.254.169.254/latest/meta-data/',
    `https://example.com/${'a'.repeat(2100)}`,
  ],
  email: ['a@', '@example.com', 'a@b', 'a b@example.com', 'a@example..com', '"a"@example.com', 'a@example.com\n'],
  'date-time': ['2026-02-30T00:00:00Z', '2026-13-01T00:00:00Z', '2026-01-01', '2026-01-01T25:00:00Z', '+275760-09-13T00:00:00.000Z', '1e10', 'now'],
};

/** Characters to splice into a valid string so that it is close to the pattern but (mostly) off it. */
const NEAR_CHARS = [' ', '\u0000', '\n', '.', '-', '/', '%', 'é', '１', '\u200f', '😀', 'Z', '9'];

/**
 * Odd content (which a loose schema may well accept: it is there to reach the code
 * behind validation) and, for each constraint the shape has, values that break it.
 */
function stringViolations(shape: StringShape): fc.Arbitrary<string> {
  const sample = validText(shape);
  const { maxLength: max, minLength: min, pattern, format } = shape;
  const options: WeightedArbitrary<string>[] = [
    { weight: 1, arbitrary: fc.oneof(fc.constantFrom(...ODD_STRINGS), unicodeNoise) },
    { weight: 1, arbitrary: longString },
  ];
  if (max !== undefined) {
    // Just over the maximum, padded with odd characters so that content and length are both hostile.
    const overflow = fc
      .tuple(sample, fc.integer({ min: 1, max: 3 }), fc.constantFrom(...NEAR_CHARS))
      .map(([text, over, pad]) => text + pad.repeat(max + over - text.length));
    options.push({ weight: 2, arbitrary: overflow });
  }
  if (min > 0) options.push({ weight: 2, arbitrary: sample.map((text) => [...text].slice(0, min - 1).join('')) });
  if (pattern !== undefined) {
    const regex = new RegExp(pattern);
    options.push({ weight: 3, arbitrary: nearMiss(sample, regex) });
    if (regex.test('25') && regex.test('12.5')) options.push({ weight: 2, arbitrary: fc.constantFrom(...EXTREME_AMOUNTS) });
  }
  if (format !== undefined) options.push({ weight: 2, arbitrary: fc.constantFrom(...BAD_FORMATS[format]) });
  return fc.oneof(...options);
}

/**
 * A valid string with one small edit: a character inserted or replaced, the case
 * changed, the last character dropped, the text doubled. Starting from a random edit,
 * the first that leaves the pattern is taken, since some (the case of digits) never do.
 */
function nearMiss(sample: fc.Arbitrary<string>, regex: RegExp): fc.Arbitrary<string> {
  return fc.tuple(sample, fc.nat(), fc.constantFrom(...NEAR_CHARS), fc.nat()).map(([text, at, char, start]) => {
    const i = at % (text.length + 1);
    const edits = [
      text.slice(0, i) + char + text.slice(i),
      text.slice(0, i) + char + text.slice(i + 1),
      text.toUpperCase(),
      text.toLowerCase(),
      text.slice(0, -1),
      text + text,
    ];
    const order = edits.map((_, k) => edits[(start + k) % edits.length]!);
    return order.find((edit) => !regex.test(edit)) ?? order[0]!;
  });
}

function enumViolations(values: readonly unknown[]): fc.Arbitrary<unknown> {
  const known = new Set(values.map((value) => JSON.stringify(value)));
  const near = values
    .flatMap((value) => {
      const text = String(value);
      return [text.toLowerCase(), text.toUpperCase(), ` ${text}`, `${text} `, `${text}\u0000`, text.slice(0, -1), `${text}x`, JSON.stringify(value)];
    })
    .filter((candidate, i, all) => !known.has(JSON.stringify(candidate)) && all.indexOf(candidate) === i);
  return near.length === 0 ? fc.constantFrom(...ODD_STRINGS) : fc.oneof(fc.constantFrom(...near), fc.constantFrom(...ODD_STRINGS));
}

function admitsNumber(shape: NumberShape, n: number): boolean {
  const { minimum, maximum } = shape;
  if (shape.integer && !Number.isSafeInteger(n)) return false;
  if (minimum !== undefined && (minimum.exclusive ? n <= minimum.value : n < minimum.value)) return false;
  if (maximum !== undefined && (maximum.exclusive ? n >= maximum.value : n > maximum.value)) return false;
  return true;
}

function numberViolations(shape: NumberShape): fc.Arbitrary<number> {
  const { minimum, maximum } = shape;
  const candidates = [
    ...(minimum ? [minimum.value, minimum.value - 1, minimum.value - 0.5] : []),
    ...(maximum ? [maximum.value, maximum.value + 1, maximum.value + 0.5] : []),
    ...(shape.integer ? [0.5, 1.5, 1e-7, (minimum?.value ?? 0) + 1.5] : []),
    -1,
    0,
  ].filter((n) => !admitsNumber(shape, n));
  // The edge numbers stay even where valid; among them -0, which equals 0 to a validator
  // but not to Object.is, and which JSON.stringify sends as 0.
  const pool = [...candidates, ...EDGE_NUMBERS].filter((n, i, all) => all.findIndex((other) => Object.is(other, n)) === i); // a Set would merge -0 into 0
  return fc.constantFrom(...pool);
}

function arrayViolations(shape: ArrayShape): fc.Arbitrary<unknown[]> {
  const item = valid(shape.items);
  const { minItems: min, maxItems: max } = shape;
  const badItem = fc
    .tuple(fc.array(item, { minLength: Math.max(min, 1), maxLength: Math.max(max ?? 4, 1) }), hostile(shape.items), fc.nat())
    .map(([items, bad, at]) => items.map((value, i) => (i === at % items.length ? bad : value)));
  const tooLong =
    max !== undefined
      ? fc.array(item, { minLength: max + 1, maxLength: max + 3 })
      : fc.tuple(item, fc.integer({ min: 1000, max: 3000 })).map(([value, length]) => Array.from({ length }, () => value));
  const options = [badItem, tooLong];
  if (min > 0) options.push(fc.array(item, { maxLength: min - 1 }));
  return fc.oneof(...options);
}

type Edit = { readonly key: string; readonly value: unknown } | { readonly key: string; readonly remove: true };

/** Keys that are not prototype ones but still surprise: empty, Mongo operators, dotted paths. */
const EXOTIC_KEYS = ['', ' ', '$where', '$gt', 'a.b', '\u0000'];

/** A valid object with one to three edits: a property made hostile, a required one dropped, an unknown one added. */
function objectViolations(shape: ObjectShape): fc.Arbitrary<Record<string, unknown>> {
  const nameViolations = shape.propertyNames === undefined ? [] : [violations(shape.propertyNames).map(String)];
  const unknownKey = fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS, ...EXOTIC_KEYS), fc.string({ minLength: 1, maxLength: 12 }), ...nameViolations);
  const unknownValue = shape.additional === false ? fc.oneof(fc.constantFrom(...POLLUTERS), anyJson) : hostile(shape.additional);
  const edits: WeightedArbitrary<Edit>[] = [{ weight: 1, arbitrary: fc.record({ key: unknownKey, value: unknownValue }) }];
  if (shape.properties.size > 0) {
    const replace = fc.oneof(...[...shape.properties].map(([key, property]) => hostile(property).map((value): Edit => ({ key, value }))));
    edits.push({ weight: 2, arbitrary: replace });
  }
  if (shape.required.length > 0) edits.push({ weight: 1, arbitrary: fc.constantFrom(...shape.required).map((key): Edit => ({ key, remove: true })) });
  return fc.tuple(validObject(shape), fc.array(fc.oneof(...edits), { minLength: 1, maxLength: 3 })).map(([object, changes]) => {
    const edited = { ...object };
    for (const edit of changes) {
      if ('remove' in edit) delete edited[edit.key];
      else define(edited, edit.key, edit.value);
    }
    return edited;
  });
}

// ---------------------------------------------------------------------------
// Query strings and path segments

/** Text a scalar shape can be sent as in a URL; objects and null have no such form. */
function scalarText(shape: Shape, where: string): fc.Arbitrary<string> {
  if ([...kindsOf(shape)].some((kind) => kind !== 'string' && kind !== 'number' && kind !== 'boolean')) {
    throw new Error(`Unsupported schema at ${where}: only strings, numbers, booleans (and arrays of them in a query) can be sent in a URL`);
  }
  return valid(shape).map(String);
}

const ODD_QUERY_VALUES = [
  '',
  ' ',
  '-0',
  '+1',
  '0x10',
  '1e3',
  '1.5',
  '-1',
  '0',
  'NaN',
  'Infinity',
  '9007199254740993',
  '1'.repeat(400),
  'true',
  'null',
  'undefined',
  '[]',
  '{}',
  '\u0000',
  '%00',
  '１',
  '\u202e1',
];

function queryValue(shape: Shape, where: string): fc.Arbitrary<string | string[]> {
  // An array is sent as the key repeated (form style, exploded: OpenAPI's default).
  const validValue: fc.Arbitrary<string | string[]> =
    shape.kind === 'array'
      ? fc.array(scalarText(shape.items, `${where}/items`), { minLength: shape.minItems, maxLength: shape.maxItems })
      : scalarText(shape, where);
  const hostileValue = fc.oneof(
    hostile(shape).map((value) => (Array.isArray(value) ? value.map(queryScalar) : queryScalar(value))),
    fc.constantFrom(...ODD_QUERY_VALUES),
    fc.tuple(validValue, validValue).map((values) => values.flat()),
  );
  return fc.oneof({ weight: 3, arbitrary: validValue }, { weight: 1, arbitrary: hostileValue });
}

function queryScalar(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function unknownQueryKey(names: readonly string[]): fc.Arbitrary<string> {
  const bracketed = names.flatMap((name) => [`${name}[]`, `${name}[0]`, `${name}[$gt]`, name.toUpperCase()]);
  return fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS, ...EXOTIC_KEYS, ...bracketed), fc.string({ minLength: 1, maxLength: 12 }));
}

const unknownQueryValue = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(...ODD_QUERY_VALUES),
  fc.array(fc.string({ maxLength: 6 }), { minLength: 2, maxLength: 3 }),
);

/** Letters, digits, '_' and '-': ids for a path parameter whose schema has no pattern. */
const ID_CHARS = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-'];

function segmentText(shape: Shape, where: string): fc.Arbitrary<string> {
  if (shape.kind === 'string' && shape.pattern === undefined && shape.format === undefined) {
    const minLength = Math.max(1, shape.minLength);
    return fc.string({ unit: fc.constantFrom(...ID_CHARS), minLength, maxLength: shape.maxLength ?? Math.max(minLength, 32) });
  }
  return scalarText(shape, where);
}

/** Segments a router or a decoder may mishandle, already encoded as a hostile client would send them. */
const ODD_SEGMENTS = [
  '..',
  '.',
  '%2e%2e',
  '%2E%2E',
  '%2e',
  'a%2Fb',
  '%2F',
  '%5C',
  '..%2F..%2Fetc%2Fpasswd',
  '%00',
  '%',
  '%zz',
  '%2',
  '%20',
  '+',
  '',
  '~',
  '%C0%AE', // an overlong '.'
  '%FF', // not UTF-8
  '%E2%80%AE', // right-to-left override
  '%EF%BC%91', // fullwidth 1
  '%F0%9F%98%80',
  'null',
  'undefined',
  '__proto__',
  'constructor',
];

function oddSegment(decoded: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...ODD_SEGMENTS) },
    { weight: 1, arbitrary: decoded.map((text) => encodeSegment(text.toUpperCase())) },
    { weight: 1, arbitrary: decoded.map((text) => `${encodeSegment(text)}/`) },
    { weight: 1, arbitrary: fc.tuple(decoded, fc.nat()).map(([text, at]) => encodeOneChar(text, at)) },
    { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...ID_CHARS), minLength: 300, maxLength: 300 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }).map(encodeSegment) },
  );
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** Percent-encodes all but RFC 3986's unreserved characters; unlike encodeURIComponent it does not throw on a lone surrogate. */
function encodeSegment(text: string): string {
  return [...text].map((char) => (UNRESERVED.test(char) ? char : percentEncode(char))).join('');
}

/** The segment with the character at `at` percent-encoded even though it need not be. */
function encodeOneChar(text: string, at: number): string {
  const chars = [...text];
  const i = at % Math.max(chars.length, 1);
  return chars.map((char, j) => (j === i ? percentEncode(char) : encodeSegment(char))).join('');
}

function percentEncode(char: string): string {
  return [...new TextEncoder().encode(char)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}
