/**
 * The name memory text uses for a speaker ("小明喜欢猫"). QQ official events often carry no
 * display name, only an opaque 32-character openid: such ids are shortened to "用户E4F4" so
 * memory stays readable and different speakers stay apart (the full account is kept in the
 * item's provenance). Short ids, like OneBot's numeric QQ numbers, are used as they are.
 */
const OPAQUE_ID_LENGTH = 12;

export function speakerName(
  displayName: string | null | undefined,
  userId: string | null | undefined,
): string {
  const name = displayName?.trim();
  if (name) return name;
  if (!userId) return "用户";
  return userId.length > OPAQUE_ID_LENGTH ? `用户${userId.slice(0, 4)}` : userId;
}

/**
 * Who a statement is about: the name its text uses, and a stable id (person, else account)
 * that subject keys use — so that two people who share a display name, or whose openids
 * start alike, never supersede each other's statements.
 */
export type Speaker = { readonly name: string; readonly id: string };

export function speakerOf(input: {
  displayName: string | null | undefined;
  userId: string | null | undefined;
  account: string | null | undefined;
  personId: string | null | undefined;
}): Speaker {
  const name = speakerName(input.displayName, input.userId);
  const id = input.personId ? `person:${input.personId}` : (input.account ?? `name:${name}`);
  return { name, id };
}
