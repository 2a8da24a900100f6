export interface Ids {
  /** A new opaque identifier with its prefix, e.g. `lic_…`. */
  next(prefix: 'dev' | 'key' | 'kid' | 'prod' | 'cus' | 'lic' | 'cs' | 'card' | 'evt' | 'otp' | 'pur' | 'act' | 'ord' | 'sub' | 'trq' | 'mail' | 'csn' | 'psk' | 'wch' | 'mf' | 'lease'): string;
  /** A new 256-bit random secret with its prefix, e.g. `sk_…`. */
  secret(prefix: string): string;
}
