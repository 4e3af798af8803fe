// Messages of the station screens shown by components and set by loaders/actions.
export const SAVE_FAILED_MESSAGE = "No pudimos guardar la estación. Probá de nuevo en unos minutos.";
export const LOAD_FAILED_MESSAGE = "No pudimos cargar los datos. Probá de nuevo en unos minutos.";
