/**
 * xstate's pure transition API for one machine, without its per-call throwaway actor.
 * `transition()` and `initialTransition()` build a new actor for every call, and
 * constructing it computes the machine's initial state with no input: the order
 * machine's context factory throws a TypeError there, caught inside xstate, on every
 * turn. The scope below is the one those helpers build (an inert scope whose action
 * executor only collects), made once per machine. It is safe to share because the
 * runtime lets no machine spawn children or address `self`: turn.ts refuses
 * `spawnChild` and `sendTo`, and delayed events become timer rows, not scheduled sends.
 */
import { createActor, type AnyActorScope, type AnyMachineSnapshot, type AnyStateMachine, type EventObject, type InspectionEvent } from 'xstate';

export type Action = { type: string; params: unknown };

export class MachineSteps {
  readonly #self;
  readonly #system: AnyActorScope['system'];

  /**
   * `inspect` is for model-based tests, which learn the transitions taken only from what
   * xstate reports to the system's inspection hook; the runtime passes none.
   */
  constructor(
    private readonly machine: AnyStateMachine,
    inspect?: (event: InspectionEvent) => void,
  ) {
    // Built once: its eager initial state, without input, may fail, and nothing reads it.
    this.#self = createActor(machine);
    // On a stand-in inheriting the rest, so the actor's own system keeps xstate's hook.
    this.#system = inspect ? Object.create(this.#self.system, { _sendInspectionEvent: { value: inspect } }) : this.#self.system;
  }

  initial(input: unknown): [AnyMachineSnapshot, Action[]] {
    const actions: Action[] = [];
    return [this.machine.getInitialSnapshot(this.#scope(actions), input), actions];
  }

  next(snapshot: AnyMachineSnapshot, event: EventObject): [AnyMachineSnapshot, Action[]] {
    const actions: Action[] = [];
    return [this.machine.transition(snapshot, event, this.#scope(actions)), actions];
  }

  /**
   * The scope a pure step runs in. Every member xstate's transition reads is here, each checked
   * against its type; the members a running actor alone has are absent, so the object is a
   * Partial that xstate takes as a whole scope.
   */
  #scope(actions: Action[]): AnyActorScope {
    return {
      self: this.#self,
      defer: () => {},
      id: '',
      logger: () => {},
      sessionId: '',
      stopChild: () => {},
      system: this.#system,
      emit: () => {},
      actionExecutor: (action: { type: string; params: unknown }) => void actions.push({ type: action.type, params: action.params }),
    } satisfies Partial<AnyActorScope> as AnyActorScope;
  }
}

const steps = new WeakMap<AnyStateMachine, MachineSteps>();

/** The steps of `machine`, made on first use. */
export function stepsOf(machine: AnyStateMachine): MachineSteps {
  let found = steps.get(machine);
  if (!found) steps.set(machine, (found = new MachineSteps(machine)));
  return found;
}
