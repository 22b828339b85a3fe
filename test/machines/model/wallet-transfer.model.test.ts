/**
 * Model-based tests of the wallet transfer machine on the `wallet-transfer` kind: one
 * state and no transitions (document 3, "Inbound wallet-provider webhook", stores each
 * canonical transfer once); the one path creates it and checks the view.
 */
import test from 'ava';
import type { MachineModel } from '../../support/model-paths.js';
import { modelTests } from '../../support/model-tests.js';
import { WALLET_TRANSFER_KIND, WALLET_TRANSFER_VARIANTS, walletTransferAbstraction, walletTransferEvents } from './wallet-transfer-events.js';

const model: MachineModel = {
  name: 'wallet-transfer',
  kind: WALLET_TRANSFER_KIND,
  variants: WALLET_TRANSFER_VARIANTS,
  events: walletTransferEvents,
  abstract: walletTransferAbstraction,
  statusOf: (snapshot) => String(snapshot.value),
};

modelTests(test, model);
