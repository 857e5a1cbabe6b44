/**
 * One rule for naming Marketo's lead fields in the console (newcomer trial 2026-12-02-s8, finding 4): the
 * hint under Lead fields said "as Marketo names the lead fields (email, firstName, leadScore)", the refusal
 * "as Marketo shows them", "Lead Source" was refused for Person Source, and `leadSource` came back headed
 * "Person Source". Now either name in any case, "Lead Source" too (console/src/marketo/familiar-names.ts),
 * each column headed by the name typed (console/src/column-names.ts), and the hint is the task's one help,
 * which the refusal repeats (console/src/marketo/task-prepare.ts).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  csvHeaderInApiNames,
  fieldListInApiNames,
  headingFor,
  typedHeadings,
} from "../../console/src/column-names.js";
import { taskFieldHelp } from "../../console/src/field-words.js";
import type { NamedField } from "../../console/src/filter-names.js";
import { withFamiliarNames } from "../../console/src/marketo/familiar-names.js";
import { upsertPreview } from "../../console/src/marketo/upsert-words.js";
import { MARKETO_TASKS } from "../../src/tools/marketo/tasks.js";

/** Describe Lead2's names as the sandbox (and a Marketo instance's UI) give them. */
const DESCRIBED: NamedField[] = [
  { api: "email", ui: "Email Address" },
  { api: "firstName", ui: "First Name" },
  { api: "leadScore", ui: "Lead Score" },
  { api: "leadSource", ui: "Person Source" },
  { api: "createdAt", ui: "Created At" },
];
const LEADS = withFamiliarNames(DESCRIBED);

describe("a lead field's names", () => {
  it("take Lead Source as Person Source, after the instance's own names", () => {
    expect(fieldListInApiNames("First Name, Lead Source, person source, leadsource", LEADS)).toEqual({
      ok: true,
      value: ["firstName", "leadSource", "leadSource", "leadSource"],
    });
    expect(csvHeaderInApiNames("Email,LEAD SOURCE\na@b.c,Web", LEADS)).toEqual({
      ok: true,
      value: "email,leadSource\na@b.c,Web",
    });
    expect(LEADS.slice(0, DESCRIBED.length)).toEqual(DESCRIBED);
  });

  it("leave an instance's own field named Lead Source to be that field, and add nothing it lacks", () => {
    const custom = [...DESCRIBED, { api: "leadSource__c", ui: "Lead Source" }];
    expect(withFamiliarNames(custom)).toEqual(custom);
    const none = DESCRIBED.filter((field) => field.api !== "leadSource");
    expect(withFamiliarNames(none)).toEqual(none);
  });

  it("head each column by the name typed, in the field's own spelling", () => {
    const headings = typedHeadings("firstName, email address, LEAD SCORE, Lead Source, createdAt", LEADS);
    expect([...headings]).toEqual([
      ["firstName", "First Name"],
      ["email", "Email Address"],
      ["leadScore", "Lead Score"],
      ["leadSource", "Lead Source"],
      ["createdAt", "Created At"],
    ]);
    expect(headingFor("Person Source", "leadSource", LEADS)).toBe("Person Source");
    // The REST name spells the familiar name: what was asked for is Lead Source (s7's log, s8's finding).
    expect(headingFor("leadSource", "leadSource", LEADS)).toBe("Lead Source");
  });

  it("heads any field named either way, in any case, by one of its own names (fast-check)", () => {
    fc.assert(
      fc.property(fc.constantFrom(...LEADS), fc.boolean(), fc.boolean(), (field, ui, upper) => {
        const name = ui ? field.ui : field.api;
        const typed = upper ? name.toUpperCase() : name.toLowerCase();
        const heading = headingFor(typed, field.api, LEADS);
        const own = LEADS.filter((one) => one.api === field.api).map((one) => one.ui);
        expect(own).toContain(heading);
        if (ui) expect(heading).toBe(field.ui);
      }),
      { seed: 4, numRuns: 200 },
    );
  });

  it("show in a CSV's preview the field each column writes by the instance's own name", () => {
    const input = { body: { action: "createOrUpdate", lookupField: "email", input: [] } };
    const preview = upsertPreview("Email,Lead Source\na@b.c,Web\n", input, LEADS);
    expect(preview.columns).toEqual([
      { typed: "Email", field: "Email Address" },
      { typed: "Lead Source", field: "Person Source" },
    ]);
  });
});

describe("the rule, said once", () => {
  const task = (id: string) => MARKETO_TASKS.find((one) => one.id === id);
  const help = (id: string, field: string) =>
    taskFieldHelp(id, field, task(id)?.fields.find((one) => one.name === field)?.help);

  it("is the hint under Lead fields and under the CSV box: either name, any case, Lead Source", () => {
    for (const [id, field] of [
      ["export", "fields"],
      ["upsert_leads", "csv"],
    ] as const) {
      const words = help(id, field);
      expect(words).toContain(
        'as Marketo shows it or in one word ("First Name" or "firstName"), in any case',
      );
      expect(words).toContain('"Lead Source" also names Person Source');
      expect(words).not.toMatch(/API name/);
    }
    expect(help("export", "fields")).toMatch(/^The columns of the file/);
  });
});
