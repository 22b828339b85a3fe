/** One row of GET /internal/v1/machines, as the node builds it and the page reads it. */
export interface MachineSummary {
  name: string;
  /** The actor kind that runs the machine on this node, where one does. */
  kind?: string;
  machineVersion?: number;
  /** States under the machine, nested ones included. */
  states: number;
}
