/**
 * The charts the node serves: every machine of the code it runs (the chart registry),
 * each named with the actor kind that runs it here and that kind's machine version. A
 * definition is read once, on first use, and kept: the code does not change while the
 * process runs.
 */
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { chartedMachines } from './chart-registry.js';
import { chartDefinition, chartStates, type ChartDefinition } from '../../machines/charts/index.js';
import type { MachineSummary } from './machine-summary.js';

interface Charted {
  summary: MachineSummary;
  definition: ChartDefinition;
}

export class MachineCharts {
  #charted: Promise<Map<string, Charted>> | undefined;

  constructor(private readonly system: Pick<ActorSystem, 'stats' | 'kind'>) {}

  async list(): Promise<MachineSummary[]> {
    return [...(await this.#all()).values()].map((charted) => charted.summary);
  }

  async definition(name: string): Promise<ChartDefinition | null> {
    return (await this.#all()).get(name)?.definition ?? null;
  }

  #all(): Promise<Map<string, Charted>> {
    this.#charted ??= chartedMachines().then((machines) => {
      // Asked on the first request, once every kind is registered.
      const kinds = this.system.stats().kinds.map((name) => this.system.kind(name));
      const charted = machines.map(({ name, machine }): [string, Charted] => {
        const definition = chartDefinition(machine);
        const kind = kinds.find((candidate) => candidate.machine === machine);
        const summary: MachineSummary = {
          name,
          ...(kind ? { kind: kind.name, machineVersion: kind.machineVersion } : {}),
          states: chartStates(definition).length,
        };
        return [name, { summary, definition }];
      });
      return new Map(charted);
    });
    return this.#charted;
  }
}
