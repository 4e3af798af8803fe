// The JSON-schema validators of the central system's strict mode (both directions), built on
// ocpp-rpc's own. Its validators put the whole message in a CALLERROR's errorDetails (`data`), so
// a charger sending one bad field would get its idTags, idTokens or passwords echoed back, and
// anything relaying the answer would see them: ours keep the validation errors only (which
// property, which rule), never a value of the request.
import ocppRpc from "ocpp-rpc";
import standardValidators from "ocpp-rpc/lib/standard-validators.js";
import type { Validator } from "ocpp-rpc/lib/validator";

const { createRPCError } = ocppRpc;

type ValidationError = Error & { rpcErrorCode?: string; details?: { errors?: unknown } };

export interface SchemaValidator {
  readonly subprotocol: string;
  validate(schemaId: string, params: unknown): unknown;
}

/** A validator whose errors carry only what was wrong, not the values that were sent. */
function withoutValues(inner: SchemaValidator): SchemaValidator {
  return {
    subprotocol: inner.subprotocol,
    validate(schemaId, params) {
      try {
        return inner.validate(schemaId, params);
      } catch (err) {
        const e = err as ValidationError;
        if (!e.rpcErrorCode) throw err;
        throw createRPCError(e.rpcErrorCode, e.message, { errors: e.details?.errors ?? [] });
      }
    },
  };
}

const validators = standardValidators.map((v) => withoutValues(v as SchemaValidator));

/**
 * One validator per subprotocol, for RPCServer's `strictModeValidators` (which only reads
 * `subprotocol` and calls `validate`, the two members a SchemaValidator has).
 */
export const ocppValidators = validators as unknown as Validator[];

const bySubprotocol = new Map(validators.map((v) => [v.subprotocol, v]));

/**
 * Why a call we are about to send breaks the protocol's schema (the validator's message, which
 * names fields and rules but no values), or undefined when it is valid.
 */
export function outboundCallProblem(protocol: string, method: string, params: unknown): string | undefined {
  const validator = bySubprotocol.get(protocol);
  if (!validator) return undefined;
  try {
    validator.validate(`urn:${method}.req`, params);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
