/** Connecting a seller's payment-processor account through OAuth. */
export const CONNECT_STATE_LIFETIME_MS = 10 * 60_000;

export interface ConnectState {
  /** Digest of the `state` parameter: the value itself travels only through the browser. */
  stateHash: string;
  developerId: string;
  expiresAt: number;
  usedAt: number | null;
}

export interface ProcessorAccount {
  developerId: string;
  accountId: string;
  connectedAt: number;
}
