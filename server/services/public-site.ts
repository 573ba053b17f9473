/**
 * The public site's data: its two anonymous forms (stored, then listed for admins) and the
 * supported-vehicle families visitors see.
 */
import { asc, type SQL } from "drizzle-orm";
import type { ContactRequestInput, DemoRequestInput } from "../../contracts/public-site";
import type { Db } from "../db/handle";
import { contactRequests, demoRequests, supportedVehicles } from "../db/schema";

/** One page of a list: the list's own condition, order and bounds. */
interface PageParts {
  where: SQL | undefined;
  orderBy: SQL[];
  limit: number;
  offset: number;
}

const textEmpty = (value: string | undefined) => (value ? value : null);

export async function saveContactRequest(db: Db, input: ContactRequestInput) {
  const [row] = await db
    .insert(contactRequests)
    .values({
      name: input.name,
      email: input.email,
      topic: input.topic,
      vehicle: textEmpty(input.vehicle),
      message: input.message,
    })
    .returning({ id: contactRequests.id, createdAt: contactRequests.createdAt });
  return row;
}

export async function saveDemoRequest(db: Db, input: DemoRequestInput) {
  const [row] = await db
    .insert(demoRequests)
    .values({
      name: input.name,
      email: input.email,
      businessName: input.businessName,
      phone: textEmpty(input.phone),
      country: textEmpty(input.country),
      platforms: textEmpty(input.platforms),
      message: textEmpty(input.message),
    })
    .returning({ id: demoRequests.id, createdAt: demoRequests.createdAt });
  return row;
}

export function contactRequestPage(db: Db, { where, orderBy, limit, offset }: PageParts) {
  return db
    .select()
    .from(contactRequests)
    .where(where)
    .orderBy(...orderBy)
    .limit(limit)
    .offset(offset);
}

export function demoRequestPage(db: Db, { where, orderBy, limit, offset }: PageParts) {
  return db
    .select()
    .from(demoRequests)
    .where(where)
    .orderBy(...orderBy)
    .limit(limit)
    .offset(offset);
}

/** The distinct vehicle families of the catalogue, without firmware ids, in order. */
export async function publicSupportedVehicles(db: Db, limit: number) {
  return db
    .selectDistinct({
      make: supportedVehicles.make,
      model: supportedVehicles.model,
      generation: supportedVehicles.generation,
      engine: supportedVehicles.engine,
      yearFrom: supportedVehicles.yearFrom,
      yearTo: supportedVehicles.yearTo,
    })
    .from(supportedVehicles)
    .orderBy(
      asc(supportedVehicles.make),
      asc(supportedVehicles.model),
      asc(supportedVehicles.generation),
      asc(supportedVehicles.engine),
      asc(supportedVehicles.yearFrom),
    )
    .limit(limit);
}
