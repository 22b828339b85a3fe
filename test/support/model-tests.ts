/**
 * Registers a machine's model-based tests with ava: one test per generated path, run on
 * the actor kind; one that holds the paths to every state node and transition of the
 * machine; and, with a document, one per row of its table, each met by some path. A path
 * or row the document's table marks as a known disagreement is registered `test.failing`.
 */
import type { ExecutionContext, TestFn } from 'ava';
import { judgePath } from './model-document.js';
import { allStateNodes, allTransitions } from './model-machine.js';
import { coverageOf, generatePaths, type MachineModel } from './model-paths.js';
import { runPath } from './model-runner.js';

export function modelTests(test: TestFn, model: MachineModel): void {
  const paths = generatePaths(model);
  const met = new Set<string>();
  for (const path of paths) {
    const verdict = model.document ? judgePath(model, path.steps) : { rows: [], problems: [], known: true };
    for (const row of verdict.rows) met.add(row.row);
    if (verdict.problems.length > 0 && verdict.known) {
      // The machine disagrees with the document on this path, as a row of the table notes: the test holds the document's side.
      test.failing(`${path.title} [disagrees with the document]`, (t) => runPath(t, model, path));
    } else {
      test(path.title, (t) => runPath(t, model, path));
    }
  }

  test(`${model.name}: the paths enter every state node and take every transition`, (t) => {
    const machine = model.kind.machine;
    const { nodes, transitions } = coverageOf(paths);
    t.deepEqual([...nodes].sort(), allStateNodes(machine).sort(), 'state nodes reached');
    const missed = allTransitions(machine).filter((id) => !transitions.has(id));
    t.deepEqual(missed.sort(), Object.keys(model.unreachable ?? {}).sort(), 'transitions no path takes are exactly those listed unreachable');
    t.log(
      `${paths.length} paths; ${nodes.size}/${allStateNodes(machine).length} state nodes; ${transitions.size}/${allTransitions(machine).length} transitions`,
    );
  });

  for (const row of model.document?.rows ?? []) {
    const title = `${model.name}: document row "${row.row}" (${row.section}) is met by a path`;
    const check = (t: ExecutionContext) => t.true(met.has(row.row), row.missing ?? 'no path meets this row');
    // The machine has nothing for this row yet: the test states the document's side and is expected to fail.
    if (row.missing) test.failing(title, check);
    else test(title, check);
  }
}
