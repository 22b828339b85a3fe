/**
 * Whether this node is in the load balancer's rotation. A node told to stop leaves it
 * first (its readiness probe answers 503), keeps serving while the balancer notices, and
 * only then stops listening: a request the balancer sent before it noticed is still
 * answered, so a rolling restart fails none (docs/operations.md).
 */
export class Rotation {
  #leaving = false;

  /** The node is stopping: readiness answers 503 from now on, and answers ask not to keep the connection. */
  leave(): void {
    this.#leaving = true;
  }

  get leaving(): boolean {
    return this.#leaving;
  }
}
