/**
 * The seeded folder trees (Lead Database, Marketing Activities, Design Studio) as the real instance has
 * them (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/folders): a root
 * Zone, its workspace Zone, then folders. Deterministic from the clock (no PRNG draw).
 */
import type { AssetFolder } from "../types.js";

const DAY_MS = 86_400_000;

/** Folder ids of the seeded trees; program folders 40–43 are the `folder.value` of the programs. */
export const LIST_FOLDER_ID = 12;
export const SMART_LIST_FOLDER_ID = 13;
export const PROGRAM_FOLDER_NAMES = ["Marketing Programs", "Campaigns", "Nurturing", "Events"] as const;

type FolderSpec = readonly [id: number, name: string, folderType: string, parentId: number | null];

const FOLDER_SPECS: readonly FolderSpec[] = [
  [3, "Lead Database", "Zone", null],
  [5, "Default", "Zone", 3],
  [LIST_FOLDER_ID, "Global Lists", "List", 5],
  [SMART_LIST_FOLDER_ID, "Global Smart Lists", "List", 5],
  [14, "Marketing Activities", "Zone", null],
  [15, "Default", "Zone", 14],
  ...PROGRAM_FOLDER_NAMES.map((name, i): FolderSpec => [40 + i, name, "Marketing Folder", 15]),
  [16, "Design Studio", "Zone", null],
  [17, "Default", "Zone", 16],
  [18, "Emails", "Email", 17],
  [19, "Landing Pages", "Landing Page", 17],
  [20, "Images and Files", "Image", 17],
];

/** The three trees as the real instance has them: a root Zone, its workspace Zone, then folders. */
export function seedFolders(now: number): AssetFolder[] {
  const created = now - 900 * DAY_MS;
  const byId = new Map<number, AssetFolder>();
  for (const [id, name, folderType, parentId] of FOLDER_SPECS) {
    const parent = parentId === null ? undefined : byId.get(parentId);
    const isRoot = parentId === null;
    byId.set(id, {
      id,
      name,
      description: isRoot ? `Root node for the ${name} app area` : folderType === "Zone" ? null : "",
      folderType,
      parentId,
      path: `${parent?.path ?? ""}/${name}`,
      isSystem: folderType === "Zone" || id === LIST_FOLDER_ID,
      createdAt: created,
      updatedAt: created + (id % 7) * DAY_MS,
    });
  }
  return [...byId.values()];
}
