/**
 * The engineers' machine charts: the chart name in the path, a machine's summary in the
 * list, and its chart graph (machines/charts/chart-graph.ts) as served, recursive like the
 * states it describes.
 */
import { z } from 'zod';
import type { ChartState } from '../../machines/charts/chart-graph.js';

/** A chart name: the machine's id in kebab case (machines/charts/chart-definition.ts `chartName`). */
const machineName = z
  .string()
  .regex(/^[a-z][a-z0-9-]{0,63}$/, 'must be a machine chart name: lower-case letters, digits and hyphens, such as payment')
  .meta({ description: 'The machine’s chart name: its id in kebab case', example: 'payment' });

export const machinePath = z.strictObject({ name: machineName });

const machineSummary = z.object({
  name: machineName,
  kind: z.string().optional().meta({ description: 'The actor kind that runs this machine on the node, where one does (actor addresses start with it)' }),
  machineVersion: z.number().int().optional().meta({ description: 'The machine version that kind stores with its snapshots' }),
  states: z.number().int().meta({ description: 'How many states the machine has, nested ones included, the machine itself not' }),
});

export const machineList = z.array(machineSummary).meta({ description: 'Every machine of the running code, by name' });

const jsonPrimitive = z.union([z.string(), z.number(), z.boolean(), z.null()]);

const chartAction = z
  .object({
    type: z.string().meta({ description: 'The action’s name, or the event type an inline emit writes' }),
    kind: z.enum(['effect', 'emit', 'assign', 'builtin']).meta({
      description: 'effect: run by the node after the turn is written; emit: a domain event; assign: a change of context; builtin: another xstate action',
    }),
    params: z.record(z.string(), jsonPrimitive).optional().meta({ description: 'Params written in the machine as literals' }),
  })
  .meta({ id: 'ChartAction' });

const chartTransition = z
  .object({
    event: z.string().nullable().meta({ description: 'The event type; null for a delayed or an eventless transition' }),
    delay: z
      .object({
        label: z.string().meta({ description: 'As the chart reads it: 1h, 30m, or the delay’s name when each actor computes its own' }),
        name: z.string().optional().meta({ description: 'The delay’s name, when each actor computes its own' }),
        ms: z.number().optional().meta({ description: 'The delay in milliseconds, when the machine fixes it' }),
      })
      .optional()
      .meta({ description: 'The wait of a delayed transition; absent otherwise' }),
    guard: z.string().optional().meta({ description: 'An expression of named guards, such as notProving && !in(#payment.CREATED.CONVERTING)' }),
    actions: z.array(chartAction).meta({ description: 'The actions the transition runs, in order' }),
    targets: z.array(z.string()).meta({ description: 'State ids entered; empty when the transition stays where it is' }),
    reenter: z.literal(true).optional().meta({ description: 'The transition leaves and enters its own state again; absent otherwise' }),
  })
  .meta({ id: 'ChartTransition' });

const chartState: z.ZodType<ChartState> = z
  .object({
    id: z.string().meta({ description: 'Unique in the machine, such as payment.CREATED.SIGNALLING' }),
    key: z.string().meta({ description: 'The state’s name within its parent' }),
    type: z.enum(['atomic', 'compound', 'parallel', 'final', 'history']).meta({ description: 'The xstate kind of state' }),
    initial: z.string().optional().meta({ description: 'The child entered first, of a compound state' }),
    entry: z.array(chartAction).meta({ description: 'The actions run on entering the state' }),
    exit: z.array(chartAction).meta({ description: 'The actions run on leaving the state' }),
    transitions: z.array(chartTransition).meta({ description: 'The transitions out of the state' }),
    get states() {
      return z.array(chartState).meta({ description: 'The child states; empty for an atomic state' });
    },
    description: z.string().optional().meta({ description: 'What the machine says of the state' }),
  })
  .meta({ id: 'ChartState' });

export const machineChart = z
  .object({
    name: machineName,
    root: chartState.meta({ description: 'The machine itself, as the root state' }),
  })
  .meta({ id: 'MachineChart' });
