// One voice for the toast that confirms a create, update or delete: first person
// plural, like every other confirmation of the product ("Guardamos los cambios de tu perfil.",
// "Conectamos tu cuenta…"), with the item's name in «» when there is one. The spec gives no
// text for these toasts; where it does (photo, password), those texts stay as they are.

export type DoneAction = "created" | "saved" | "deleted";
export type DoneItem = "la estación" | "el cargador" | "la tarifa" | "la tarjeta" | "el grupo";

const VERB: Record<DoneAction, string> = { created: "Creamos", saved: "Guardamos los cambios de", deleted: "Eliminamos" };

/** "Creamos la estación «Palermo».", "Guardamos los cambios del cargador «Norte».", "Eliminamos la tarifa." */
export function doneMessage(action: DoneAction, item: DoneItem, name?: string | null): string {
  const verb = VERB[action];
  // "de" + "el" contracts to "del" in Spanish.
  const phrase = verb.endsWith(" de") && item.startsWith("el ") ? `${verb.slice(0, -3)} del ${item.slice(3)}` : `${verb} ${item}`;
  const label = name?.trim();
  return label ? `${phrase} «${label}».` : `${phrase}.`;
}
