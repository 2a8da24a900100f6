import type { Activation } from '../domain/activation.ts';
import type { Customer } from '../domain/customer.ts';
import type { License } from '../domain/license.ts';
import type { TrialClaimKind } from '../domain/trial.ts';
import type { NewActivation } from './license-repository.ts';
import type { OutboxMail } from './mail-repository.ts';

/** A trial to start: everything is decided and signed before the store is asked. */
export interface NewTrial {
  /** The customer to create when the (normalized) e-mail has none yet; else the existing one holds the trial. */
  customer: Customer;
  /** The signed license; its customerId is replaced by the e-mail's customer's. */
  license: License;
  keyHash: string;
  machine: NewActivation;
  /** The receipt, queued in the trial's transaction (so only when it starts). Its `to` is the customer's e-mail. */
  mail?: OutboxMail;
}

export type TrialOutcome =
  | { kind: 'started'; license: License; activation: Activation }
  /** The product's trial was already given to this e-mail or this machine: nothing was stored. */
  | { kind: 'claimed'; by: TrialClaimKind };

export interface TrialRepository {
  /**
   * In one store transaction: the customer found or created by e-mail, the trial license stored, the
   * product's (email) and (machine) claims taken, the machine activated. A claim already taken by any
   * license rolls it all back: of any number of concurrent starts for one e-mail or one machine,
   * exactly one is stored.
   */
  start(trial: NewTrial): Promise<TrialOutcome>;
}
