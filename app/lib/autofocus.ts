// Focus after a failed submit, for forms with and without conform.

/**
 * After a failed submit the first invalid field gets the focus. With JavaScript conform moves it
 * (its report() focuses the first field with an error); without JavaScript the page the server
 * answers marks every invalid field `autofocus`, and the browser focuses the first one in the
 * document. Only in the server's HTML: on the client the focus is conform's job.
 */
export function withAutoFocus<T extends object>(meta: { errors?: string[] }, props: T): T & { autoFocus?: boolean } {
  return meta.errors?.length && typeof document === "undefined" ? { ...props, autoFocus: true } : props;
}
