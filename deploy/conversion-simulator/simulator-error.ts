/** A refusal the local provider answers as `{ code, message }` with its HTTP status (4xx, or a fault's 5xx). */
export class SimulatorError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
