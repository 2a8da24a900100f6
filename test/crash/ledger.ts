/**
 * What the service promised before it was killed: only acknowledged (2xx/303) answers are written
 * here. A request the process died under promised nothing, but what it tried is kept (`tried`), since
 * it may have committed before the kill.
 */
export class Ledger {
  /** Every license whose id and key the service handed out. */
  readonly licenses = new Map<string, { licenseKey: string; origin: 'grant' | 'checkout' | 'purchase' }>();
  /** License id → the fingerprint an acknowledged valid:true bound it to. */
  readonly winners = new Map<string, string>();
  /** License id → every fingerprint ever sent for it, answered or not. */
  readonly tried = new Map<string, Set<string>>();
  /** Acknowledged machine_mismatch answers: that fingerprint lost. */
  readonly losers: { licenseId: string; fingerprint: string }[] = [];
  /** Sessions whose Pay answered 303 (the payment was taken). */
  readonly paidSessions = new Set<string>();
  /** Session → the license its complete status reported. */
  readonly sessionLicenses = new Map<string, string>();
  /** Purchase → the license its acknowledged confirm returned, and what to confirm it again with. */
  readonly confirmed = new Map<string, { licenseId: string; token: string; body: Record<string, string> }>();
  /** Licenses not validated yet: the validation workers race to bind them. */
  readonly unbound: string[] = [];
  /** Broken promises seen while driving (two winners, a 5xx, an unexpected answer). */
  readonly violations: string[] = [];
  requests = 0;
  inFlight = 0;
  /** Requests the kill cut off: sent, never answered. */
  lost = 0;

  addLicense(id: string, licenseKey: string, origin: 'grant' | 'checkout' | 'purchase') {
    if (this.licenses.has(id) && origin !== 'grant') this.violations.push(`license ${id} was handed out twice (${origin})`);
    this.licenses.set(id, { licenseKey, origin });
    this.unbound.push(id);
  }

  tryFingerprint(licenseId: string, fingerprint: string) {
    const set = this.tried.get(licenseId) ?? new Set<string>();
    set.add(fingerprint);
    this.tried.set(licenseId, set);
  }

  /** An acknowledged validation: exactly one fingerprint may ever win a license. */
  recordValidation(licenseId: string, fingerprint: string, reply: { status: number; body: any }) {
    if (reply.status === 200 && reply.body?.valid === true) {
      const winner = this.winners.get(licenseId);
      if (winner && winner !== fingerprint) this.violations.push(`license ${licenseId} was bound twice: ${winner} and ${fingerprint}`);
      this.winners.set(licenseId, winner ?? fingerprint);
    } else if (reply.status === 200 && reply.body?.reason === 'machine_mismatch') {
      this.losers.push({ licenseId, fingerprint });
    } else {
      this.violations.push(`validate ${licenseId}: ${reply.status} ${JSON.stringify(reply.body)}`);
    }
  }

  /** Enough of every kind acknowledged that the kill interrupts a run with promises to keep. */
  hasPromisesOfEveryKind(): boolean {
    return this.winners.size >= 3 && this.losers.length >= 1 && this.sessionLicenses.size >= 1 && this.confirmed.size >= 1;
  }
}
