/**
 * The values the API reference's examples use, in one place. They have the shape of real ones, so
 * "Try it out" shows what to send; ids and codes are the caller's own (the reference's test replays
 * every example on a live server with these values replaced by the ones it created).
 */
export const EXAMPLE = {
  developerId: 'dev_7Hn2QwLp4XkZ9sTb1VcR6m',
  productId: 'prod_4Fq8ZkT1mR7cWx2Ln9PbYd',
  licenseId: 'lic_9Kd3VxQ7tN2pLm5RbW8cZs',
  apiKeyId: 'key_2Mz6TqW9hB4nXc7Kp1LdVf',
  sessionId: 'cs_5Rb8NwK2vT9qZx4Hm7LcPd',
  purchaseId: 'pur_8Tn3KxV6qR1mZc9Wb4LhPs',
  otpId: 'otp_3Vd7QmX2kT8nLw5Rc1HbZp',
  cardId: 'card_6Wq1LzN8xK3vTb7Rm2HcPd',
  activationId: 'act_4Hs9WqL2mX7cTn5Rb8KdVz',
  leaseId: 'lease_4kQ9zV2mN7xR1bT8cW3yLp',
  webhookEndpointId: 'we_6Tp2KxR9mW4cLz7Nb1QdHs',
  webhookDeliveryId: 'del_3f9a1c7e5b2d8046e1a9c3b7',
  eventId: 'msg_8c2e4a6f1b3d5907a2c4e6f8',
  orderId: 'ord_6Pz2KwR8nT4xLc1Vm9HbQs',
  subscriptionId: 'sub_7Hq2LmN4pR8sT1vW3xY5zA',
  trialRequestId: 'trq_2Xw8MkP5rT1nLc7Vb4HqZs',
  consoleSessionId: 'csn_5Kw9PzR2mT7xLc4Vb1HqNs',
  passkeyId: 'psk_8Ln3QwX6kT1mZc9Rb4HdPs',
  webauthnChallengeId: 'wch_4Rt7KmZ2xN9pLc1Vb6HqWs',
  /** A compact JWS as POST /developers/licenses or a checkout hands it out (shortened). */
  licenseKey: 'eyJhbGciOiJFZERTQSIsImtpZCI6ImtpZF8uLi4ifQ.eyJpZCI6ImxpY18uLi4ifQ.c2lnbmF0dXJl',
  /** The client's machine fingerprint: lower-case hex SHA-256. */
  machineFingerprint: '9c56cc51b374c3ba189210d5b6d4bf57790d351c96c47c02190ecf1e430635ab',
  sellerEmail: 'seller@example.com',
  buyerEmail: 'buyer@example.com',
  phone: '+15551234567',
  newPhone: '+15557654321',
  phoneLinkToken: 'cus_4Fq8ZkV2mN7xLw3Rb9TcHy.card_7Hn2Qw8ZkX4mV1Lr6TbJdp.mhy5p4c0.q1W3e5R7t9Y2u4I6o8P0a2S4d6F8g0H2j4K6l8Z0x2C',
  otp: '123456',
  customerId: 'cus_1Lk7ZpW3xN9qTb5Rm8HcVd',
  secretKey: 'sk_Xq4Lm8Tz2Wk6Rb9Nc3Hv7Pd1Jf5Ys0Ga8Ue2Ko6Mi4Bt',
  publishableKey: 'pk_Dn5Wr9Kc1Tz7Lq3Vm8Hb2Xs6Pf4Jg0Ya7Ue9Ko1Mi5Bt',
  /** 2026-01-01T00:00:00Z: times are Unix milliseconds. */
  time: 1767225600000,
} as const;

/** A license as its answers show it (the seller's view): each example changes only what its route makes different. */
export const LICENSE_EXAMPLE = {
  id: EXAMPLE.licenseId,
  productId: EXAMPLE.productId,
  customerId: EXAMPLE.customerId,
  status: 'active',
  features: ['pro'],
  issuedAt: EXAMPLE.time,
  expiresAt: null,
  machineFingerprint: null,
} as const;
