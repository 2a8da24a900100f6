ALTER TABLE "signing_keys" ADD COLUMN "not_before" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "signing_keys" ADD COLUMN "endorsement" text;--> statement-breakpoint
ALTER TABLE "signing_keys" ADD COLUMN "compromised_at" bigint;--> statement-breakpoint
ALTER TABLE "signing_keys" ADD COLUMN "retirement" text;--> statement-breakpoint
-- Hand-written data migration (key rotation): a key made before staged rotations signed from the moment it was made.
UPDATE "signing_keys" SET "not_before" = "created_at";