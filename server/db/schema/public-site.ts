/** What visitors of the public site send: contact and demo requests. */
import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { contactTopics } from "../../../contracts/public-site";

/** Messages sent from the public contact form; visitors need no account, so only what they typed is kept. */
export const contactRequests = pgTable(
  "contact_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    topic: text("topic", { enum: contactTopics }).notNull(),
    vehicle: text("vehicle"),
    message: text("message").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("contact_requests_created_idx").on(t.createdAt, t.id)],
);

/** Demo requests from businesses considering the portal. */
export const demoRequests = pgTable(
  "demo_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    businessName: text("business_name").notNull(),
    phone: text("phone"),
    country: text("country"),
    platforms: text("platforms"),
    message: text("message"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("demo_requests_created_idx").on(t.createdAt, t.id)],
);
