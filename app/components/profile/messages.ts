// What 'Mi perfil' says, shared by its page (the load failure) and its server side (toasts).
export const MESSAGES = {
  loadFailed: "No pudimos cargar los datos de tu empresa. Probá de nuevo en unos minutos.",
  saved: "Guardamos los cambios de tu perfil.",
  saveFailed: "No pudimos guardar los cambios. Probá de nuevo en unos minutos.",
  unreachable: "No pudimos comunicarnos con el servidor. Probá de nuevo en unos minutos.",
  photoRemoved: "Quitamos la foto de perfil.",
  photoRemoveFailed: "No pudimos quitar la foto. Probá de nuevo en unos minutos.",
  passwordChanged: "Listo, tu contraseña se actualizó.",
  sessionMismatch: "La contraseña no corresponde a la cuenta con la que ingresaste.",
} as const;

/** The forms of the page, told apart by their hidden `intent`. */
export type Intent = "profile" | "password" | "remove-photo";
