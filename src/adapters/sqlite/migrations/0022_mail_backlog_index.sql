DROP INDEX `mail_outbox_due`;--> statement-breakpoint
CREATE INDEX `mail_outbox_due` ON `mail_outbox` (`sent_at`,`next_attempt_at`,`created_at`);