import { nextFailures, type LoginFailures, type OtpChallenge, type OtpScope } from '../../domain/otp-challenge.ts';
import type { OtpRepository } from '../../ports/otp-repository.ts';
import { copy, copyOrNull, type MemoryTables, requireRow, requireUnique } from './memory-tables.ts';
import { deleteExpiredChallenges } from './memory-retention.ts';

// No await between any check and its write: each method is atomic, as SQLite's single statements are.
export class MemoryOtpRepository implements OtpRepository {
  constructor(private readonly tables: MemoryTables) {}

  async create(challenge: OtpChallenge): Promise<void> {
    requireUnique(this.tables.otps.has(challenge.id), 'otp_challenges.id');
    if (challenge.customerId !== null) requireRow(this.tables.customers, challenge.customerId, 'otp_challenges.customer_id');
    this.tables.otps.set(challenge.id, copy(challenge));
  }

  async findById(id: string): Promise<OtpChallenge | null> {
    return copyOrNull(this.tables.otps.get(id));
  }

  async sentSince(scope: OtpScope, subject: string, since: number): Promise<number[]> {
    return [...this.tables.otps.values()]
      .filter((c) => c.scope === scope && c.subject === subject && c.createdAt >= since)
      .map((c) => c.createdAt)
      .sort((a, b) => a - b);
  }

  async recordAttempt(id: string): Promise<number> {
    const challenge = this.tables.otps.get(id);
    if (!challenge) return 0;
    challenge.attempts += 1;
    return challenge.attempts;
  }

  async consume(id: string, at: number): Promise<boolean> {
    return this.useUp(id, at);
  }

  async discard(id: string, at: number): Promise<void> {
    this.useUp(id, at);
  }

  async loginFailures(customerId: string): Promise<LoginFailures | null> {
    return copyOrNull(this.tables.loginFailures.get(customerId));
  }

  async countTowardsLock(key: string, now: number, lockAt: number, lockMs: number): Promise<LoginFailures> {
    // No foreign key: an e-mail with no customer, a purchase or phone key is counted under its own key.
    const row = nextFailures(this.tables.loginFailures.get(key) ?? null, key, now, lockAt, lockMs);
    this.tables.loginFailures.set(key, row);
    return copy(row);
  }

  async resetLoginFailures(customerId: string): Promise<void> {
    const row = this.tables.loginFailures.get(customerId);
    if (!row) return;
    row.consecutive = 0;
    row.lockedUntil = null;
  }

  private useUp(id: string, at: number): boolean {
    const challenge = this.tables.otps.get(id);
    if (!challenge || challenge.usedAt !== null) return false;
    challenge.usedAt = at;
    return true;
  }

  async deleteExpired(before: number, limit: number): Promise<number> {
    return deleteExpiredChallenges(this.tables, before, limit);
  }
}
