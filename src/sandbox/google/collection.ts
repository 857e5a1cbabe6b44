/**
 * Per-property lists of one kind of Admin API resource (custom dimensions, custom metrics), with ids
 * from a counter so two sandboxes started alike hand out the same ids. Archived items leave the list:
 * the Admin API neither lists nor returns them (AIP-164 style soft removal without undelete).
 */
export class PropertyCollection<T extends { id: string; propertyId: string }> {
  private readonly byProperty = new Map<string, T[]>();

  constructor(private nextId: number) {}

  list(propertyId: string): T[] {
    return this.byProperty.get(propertyId) ?? [];
  }

  find(propertyId: string, id: string): T | undefined {
    return this.list(propertyId).find((item) => item.id === id);
  }

  add(input: Omit<T, "id">): T {
    const item = { ...input, id: String(this.nextId++) } as T;
    this.byProperty.set(item.propertyId, [...this.list(item.propertyId), item]);
    return item;
  }

  remove(propertyId: string, id: string): boolean {
    const before = this.list(propertyId);
    const after = before.filter((item) => item.id !== id);
    this.byProperty.set(propertyId, after);
    return after.length !== before.length;
  }
}
