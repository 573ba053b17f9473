ALTER TABLE "tuning_requests" ADD COLUMN "due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tuning_requests" ADD COLUMN "due_soon_notified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tuning_requests" ADD COLUMN "late_notified_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "tuning_requests_owed_due_idx" ON "tuning_requests" USING btree ("due_at") WHERE "tuning_requests"."state" in ('paid', 'in-progress');--> statement-breakpoint
CREATE INDEX "tuning_requests_dealer_due_idx" ON "tuning_requests" USING btree ("dealer_uid","due_at","id");--> statement-breakpoint
-- Tickets quoted before due dates were stored: the quote's days from the payment, else from the quote.
UPDATE "tuning_requests" AS r SET "due_at" = coalesce(
  (SELECT max(e."at") FROM "tuning_request_events" AS e
    WHERE e."request_id" = r."id" AND e."kind" = 'transition' AND e."to_state" = 'paid'),
  r."quoted_at"
) + r."quote_expected_days" * interval '1 day'
WHERE r."quoted_at" IS NOT NULL AND r."quote_expected_days" IS NOT NULL;
