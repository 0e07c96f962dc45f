/** A memory item's sensitivity as a tag, coloured by level; "—" when it has none. */
export const SensitivityTag = (props: { value: string | null }) => (
  <span class={`tag ${props.value ?? ""}`}>{props.value ?? "—"}</span>
);
