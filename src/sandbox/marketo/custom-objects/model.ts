/**
 * Custom objects of the sandbox instance: one seeded type, `car_c` ("Car"), linked to leads by `leadId`
 * and deduplicated by `vin`, with records for about a third of the leads. The metadata follows Adobe's
 * list/describe examples (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/custom-objects:
 * idField marketoGUID, dedupeFields, searchableFields, relationships with relatedTo {name, field}) and the
 * Swagger's ObjectMetaData (apiName, pluralName, status, version, fields).
 */
import { createHash } from "node:crypto";
import type { Prng } from "../../prng.js";

export type CustomValue = string | number | boolean | null;

export interface CustomObjectField {
  name: string;
  displayName: string;
  dataType: "string" | "integer" | "datetime" | "link";
  length?: number;
  updateable: boolean;
}

export interface CustomObjectType {
  apiName: string;
  displayName: string;
  pluralName: string;
  description: string;
  createdAt: number;
  updatedAt: number;
  dedupeFields: string[];
  searchableFields: string[][];
  /** The field holding the linked lead's id. */
  leadLink: string;
  fields: CustomObjectField[];
}

/** One record: its GUID, timestamps and field values by API name (the link field among them). */
export interface CustomObjectRecord {
  marketoGUID: string;
  createdAt: number;
  updatedAt: number;
  values: Record<string, CustomValue>;
}

const DAY_MS = 86_400_000;

const CAR_FIELDS: CustomObjectField[] = [
  { name: "createdAt", displayName: "Created At", dataType: "datetime", updateable: false },
  { name: "marketoGUID", displayName: "Marketo GUID", dataType: "string", length: 36, updateable: false },
  { name: "updatedAt", displayName: "Updated At", dataType: "datetime", updateable: false },
  { name: "vin", displayName: "VIN", dataType: "string", length: 255, updateable: false },
  { name: "leadId", displayName: "Lead", dataType: "link", updateable: true },
  { name: "make", displayName: "Make", dataType: "string", length: 255, updateable: true },
  { name: "model", displayName: "Model", dataType: "string", length: 255, updateable: true },
  { name: "year", displayName: "Year", dataType: "integer", updateable: true },
  { name: "color", displayName: "Color", dataType: "string", length: 255, updateable: true },
];

const MAKES: readonly (readonly [string, readonly string[]])[] = [
  ["Toyota", ["Corolla", "RAV4", "Camry"]],
  ["Ford", ["Focus", "F-150", "Mustang"]],
  ["Honda", ["Civic", "CR-V", "Accord"]],
  ["Tesla", ["Model 3", "Model Y"]],
];

/** A UUID-shaped GUID derived from the type and a number, so runs are repeatable. */
export function customGuid(apiName: string, n: number): string {
  const hex = createHash("sha256").update(`co:${apiName}:${n}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function seedCustomObjects(
  prng: Prng,
  leadIds: readonly number[],
  now: number,
): { types: CustomObjectType[]; records: Map<string, CustomObjectRecord[]> } {
  const createdAt = now - 400 * DAY_MS;
  const car: CustomObjectType = {
    apiName: "car_c",
    displayName: "Car",
    pluralName: "Cars",
    description: "Cars owned by a person",
    createdAt,
    updatedAt: createdAt + DAY_MS,
    dedupeFields: ["vin"],
    searchableFields: [["vin"], ["marketoGUID"], ["leadId"]],
    leadLink: "leadId",
    fields: CAR_FIELDS,
  };
  const cars: CustomObjectRecord[] = [];
  for (const leadId of leadIds) {
    if (!prng.chance(0.3)) continue;
    const count = prng.chance(0.2) ? 2 : 1;
    for (let i = 0; i < count; i++) {
      const [make, models] = prng.pick(MAKES);
      const made = now - prng.int(2, 300) * DAY_MS;
      const n = cars.length + 1;
      cars.push({
        marketoGUID: customGuid("car_c", n),
        createdAt: made,
        updatedAt: Math.min(now - 60_000, made + prng.int(0, 40) * DAY_MS),
        values: {
          vin: `SBX${String(n).padStart(14, "0")}`,
          leadId,
          make,
          model: prng.pick(models),
          year: prng.int(2012, 2025),
          color: prng.pick(["Black", "White", "Silver", "Blue", "Red"]),
        },
      });
    }
  }
  return { types: [car], records: new Map([["car_c", cars]]) };
}
