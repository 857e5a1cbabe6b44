/**
 * A step form's technical options in one closed "More options" disclosure (trial s9, finding 8: Run
 * Reports showed Realtime, Minute ranges, the PNG image and Rows to skip to a marketer on every form). The
 * step's top-level object renders with this template: the fields field-words.ts lists for the step go under the
 * disclosure, the rest as the form library lays them out. A value set in them (an example, a search line,
 * a person's earlier change) opens it, so nothing set is ever hidden.
 */
import type { ObjectFieldTemplateProps, UiSchema } from "@rjsf/utils";
import { useState } from "react";
import { moreOptions } from "./field-words.ts";
import { untouched } from "./form-ui.ts";

type Node = { default?: unknown; properties?: Record<string, Node> };

/** A value the person (or an example) gave: neither empty nor the schema's own default. */
export function isSet(value: unknown, node: Node | undefined): boolean {
  if (untouched(value)) return false;
  return node?.default === undefined || JSON.stringify(value) !== JSON.stringify(node.default);
}

function MoreOptionsTemplate(props: ObjectFieldTemplateProps) {
  const more = new Set(moreOptions(props.uiSchema?.["ui:options"]?.moreOptionsOf as string));
  const [opened, setOpened] = useState(false);
  const Default = props.registry.templates.ObjectFieldTemplate;
  const main = props.properties.filter((property) => !more.has(property.name));
  const extra = props.properties.filter((property) => more.has(property.name) && !property.hidden);
  const data = (props.formData ?? {}) as Record<string, unknown>;
  const schema = props.schema as Node;
  const set = extra.some((property) => isSet(data[property.name], schema.properties?.[property.name]));
  return (
    <>
      <Default {...props} properties={main} />
      {extra.length > 0 ? (
        <details
          className="more-options"
          open={opened || set}
          onToggle={(event) => setOpened(event.currentTarget.open)}
        >
          {/* While a value is set it stays open: React's `open` would not change, so the click would win. */}
          {/* biome-ignore lint/a11y/noStaticElementInteractions: a summary is the details' own button (keyboard included) */}
          <summary onClick={(event) => (set ? event.preventDefault() : undefined)}>More options</summary>
          {extra.map((property) => property.content)}
        </details>
      ) : null}
    </>
  );
}

/** The step's uiSchema with its technical options under More options, when it has any. */
export function withMoreOptions(ui: UiSchema, step: string): UiSchema {
  if (moreOptions(step).length === 0) return ui;
  const options = { ...((ui["ui:options"] ?? {}) as object), moreOptionsOf: step };
  return { ...ui, "ui:ObjectFieldTemplate": MoreOptionsTemplate, "ui:options": options };
}
