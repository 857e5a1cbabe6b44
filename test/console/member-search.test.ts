import { describe, expect, it } from "vitest";
import { membersShown } from "../../console/src/marketo/member-search.js";

const members = [
  { id: 12, email: "ana.lopez@example.com", firstName: "Ana", lastName: "Lopez" },
  { id: 7, email: "lead7@example.com", firstName: "Kim", lastName: "Berg" },
  { id: 1234, email: "lead1234@example.com", firstName: "Sam", lastName: "Ng" },
  { id: 123, email: "sam.ortiz@example.com", firstName: "Sam", lastName: "Ortiz" },
];
const ids = (rows: Record<string, unknown>[]) => rows.map((row) => row.id);

describe("a list's members as its search box shows them (trial s10, finding 2)", () => {
  it("shows every member, in the result's order, when nothing is typed", () => {
    expect(ids(membersShown(members, "  "))).toEqual([12, 7, 1234, 123]);
  });

  it("finds by email, first or last name, or both in either order, in any case", () => {
    expect(ids(membersShown(members, "LEAD7@"))).toEqual([7]);
    expect(ids(membersShown(members, "sam"))).toEqual([1234, 123]);
    expect(ids(membersShown(members, "ortiz"))).toEqual([123]);
    expect(ids(membersShown(members, "Sam Ng"))).toEqual([1234]);
    expect(ids(membersShown(members, "berg kim"))).toEqual([7]);
    expect(ids(membersShown(members, "nobody"))).toEqual([]);
  });

  it("finds a lead by its whole id, not every id or email holding the digits", () => {
    expect(ids(membersShown(members, "123"))).toEqual([123]);
    expect(ids(membersShown(members, "1234"))).toEqual([1234]);
    expect(ids(membersShown(members, "7"))).toEqual([7]);
  });

  it("puts the leads just added first, in the order given, the others in the result's order", () => {
    expect(ids(membersShown(members, "", ["1234", "7"]))).toEqual([1234, 7, 12, 123]);
    expect(ids(membersShown(members, "sam", ["123"]))).toEqual([123, 1234]);
  });
});
