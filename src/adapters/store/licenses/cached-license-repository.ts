import type { Activation } from '../../../domain/activation.ts';
import type { License } from '../../../domain/license.ts';
import type {
  ActivateOutcome,
  ActivationSelector,
  DeactivateOutcome,
  DeactivationQuota,
  LicensePatch,
  LicenseReissue,
  LicenseRepository,
  LicenseState,
  NewActivation,
  SeenMachine,
} from '../../../ports/license-repository.ts';
import { forwarding } from '../forwarding.ts';
import { LruMap } from '../lru-map.ts';

/**
 * The validation hot path's read (state by key digest) served from memory, write-through.
 * Correct only while every write to the store passes through this object: the SQLite store
 * guarantees that by holding its file in exclusive locking mode (one process owns it). Reads other
 * than by key digest, and creation (a new key has no entry), go straight to the store.
 */
/** Reads that cannot serve a stale state, creation (a new key has no entry yet) and the deactivation log's retention (no state reads it), go straight to the store. */
const FORWARDED = ['create', 'findByCheckoutSession', 'findByPurchase', 'listByCustomer', 'findById', 'findStateById', 'listActivations', 'listByDeveloper', 'deleteDeactivationsBefore'] as const;

export class CachedLicenseRepository extends forwarding<LicenseRepository>()(FORWARDED) implements LicenseRepository {
  private readonly states: LruMap<string, LicenseState>;
  /** License id → key digest of the cached entries, so writes by id find their entry. */
  private readonly digestOf = new Map<string, string>();
  /** Counts writes: a read that saw a write start while it waited is not cached (it may be stale). */
  private writes = 0;

  constructor(
    private readonly inner: LicenseRepository,
    capacity: number,
  ) {
    super(inner);
    this.states = new LruMap(capacity, (_, state) => this.digestOf.delete(state.id));
  }

  async findStateByKeyHash(keyHash: string): Promise<LicenseState | null> {
    const cached = this.states.get(keyHash);
    if (cached) return copy(cached);
    const before = this.writes;
    const state = await this.inner.findStateByKeyHash(keyHash);
    if (state && this.writes === before) {
      this.states.set(keyHash, copy(state));
      this.digestOf.set(state.id, keyHash);
    }
    return state;
  }

  async activate(licenseId: string, activation: NewActivation): Promise<ActivateOutcome> {
    const outcome = await this.write(licenseId, () => this.inner.activate(licenseId, activation));
    // A legacy fingerprint may have moved to the new one: read the machines afresh.
    if (activation.legacyFingerprint !== undefined) {
      this.forget(licenseId);
      return outcome;
    }
    if (outcome.kind === 'created' || outcome.kind === 'existing') {
      const machine = outcome.activation.machineFingerprint;
      this.change(licenseId, (state) => ({
        activations: state.activations.some((a) => a.machineFingerprint === machine) ? state.activations : [...state.activations, seen(outcome.activation)],
      }));
    }
    // The store's view is the truth: a full or existing answer resyncs the cached machines with it.
    if (outcome.kind === 'full') this.change(licenseId, () => ({ maxMachines: outcome.maxMachines, activations: outcome.activations.map(seen) }));
    return outcome;
  }

  async touchActivation(licenseId: string, machineFingerprint: string, at: number): Promise<void> {
    await this.write(licenseId, () => this.inner.touchActivation(licenseId, machineFingerprint, at));
    this.moveLastSeen({ licenseId, machineFingerprint, at });
  }

  async touchActivations(seen: readonly SeenMachine[]): Promise<void> {
    this.writes++;
    try {
      await this.inner.touchActivations(seen);
    } catch (error) {
      for (const { licenseId } of seen) this.forget(licenseId);
      throw error;
    } finally {
      this.writes++;
    }
    for (const machine of seen) this.moveLastSeen(machine);
  }

  /** The cached state follows a lastSeenAt the store moved (forward only, as the store does). */
  private moveLastSeen({ licenseId, machineFingerprint, at }: SeenMachine): void {
    this.change(licenseId, (state) => ({
      activations: state.activations.map((a) => (a.machineFingerprint === machineFingerprint && a.lastSeenAt < at ? { ...a, lastSeenAt: at } : a)),
    }));
  }

  async deactivate(licenseId: string, which: ActivationSelector, quota?: DeactivationQuota): Promise<DeactivateOutcome> {
    const outcome = await this.write(licenseId, () => this.inner.deactivate(licenseId, which, quota));
    if (outcome.kind === 'removed') {
      const gone = outcome.activation.machineFingerprint;
      this.change(licenseId, (state) => ({ activations: state.activations.filter((a) => a.machineFingerprint !== gone) }));
    }
    return outcome;
  }

  async unbind(id: string): Promise<void> {
    await this.write(id, () => this.inner.unbind(id));
    this.patchState(id, { activations: [] });
  }

  async update(id: string, patch: LicensePatch, expect?: LicensePatch): Promise<License | null> {
    const updated = await this.write(id, () => this.inner.update(id, patch, expect));
    if (updated) this.patchState(id, { storedStatus: updated.storedStatus, maxMachines: updated.maxMachines });
    return updated;
  }

  async reissue(licenseId: string, change: LicenseReissue): Promise<License | null> {
    try {
      return await this.write(licenseId, () => this.inner.reissue(licenseId, change));
    } finally {
      // Both digests change meaning (the old one is retired, the new one current): read them afresh.
      this.forget(licenseId);
      this.drop(change.expectKeyHash);
      this.drop(change.keyHash);
    }
  }

  private drop(digest: string): void {
    const state = this.states.get(digest);
    if (!state) return;
    this.states.delete(digest);
    if (this.digestOf.get(state.id) === digest) this.digestOf.delete(state.id);
  }

  private async write<T>(id: string, run: () => Promise<T>): Promise<T> {
    this.writes++;
    try {
      return await run();
    } catch (error) {
      this.forget(id); // the store's state is unknown now: read it afresh next time
      throw error;
    } finally {
      this.writes++;
    }
  }

  private patchState(id: string, change: Partial<LicenseState>): void {
    const digest = this.digestOf.get(id);
    const current = digest && this.states.get(digest);
    if (digest && current) this.states.replace(digest, { ...current, ...change });
  }

  private change(id: string, next: (state: LicenseState) => Partial<LicenseState>): void {
    const digest = this.digestOf.get(id);
    const current = digest && this.states.get(digest);
    if (digest && current) this.states.replace(digest, { ...current, ...next(current) });
  }

  private forget(id: string): void {
    const digest = this.digestOf.get(id);
    if (!digest) return;
    this.digestOf.delete(id);
    this.states.delete(digest);
  }
}

/** Callers get their own copy: what they do with it never reaches the cache. */
function copy(state: LicenseState): LicenseState {
  return { ...state, features: [...state.features], activations: state.activations.map((a) => ({ ...a })) };
}

const seen = ({ machineFingerprint, lastSeenAt }: Activation) => ({ machineFingerprint, lastSeenAt });
