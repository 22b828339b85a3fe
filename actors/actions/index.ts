/** actors/actions: what runs document 1's remediation actions once they are queued. */
export { actionEffects } from './action-runner.js';
export type { ActionRunnerDependencies } from './action-runner.js';
