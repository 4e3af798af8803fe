// The OCPP message log's reading of frames and its redaction (ocpp/message-log.ts): what is kept
// for troubleshooting never holds a password, an authorization key or an upload token.
import { describe, expect, it } from "vitest";
import { OCPP_MESSAGE_PAYLOAD_MAX, payloadText, readFrame, redact } from "#ocpp/message-log";

describe("redact", () => {
  it("1.6 configuration keys and 2.0.1 variables that name a secret lose their value; others keep theirs", () => {
    expect(redact({ key: "AuthorizationKey", value: "s3cret-0123456789" })).toEqual({ key: "AuthorizationKey", value: "•••" });
    expect(redact({ configurationKey: [{ key: "HeartbeatInterval", value: "300", readonly: false }, { key: "AuthorizationKey", value: "x", readonly: false }] })).toEqual({
      configurationKey: [
        { key: "HeartbeatInterval", value: "300", readonly: false },
        { key: "AuthorizationKey", value: "•••", readonly: false },
      ],
    });
    expect(redact({ setVariableData: [{ attributeValue: "pw-0123456789abcdef", component: { name: "SecurityCtrlr" }, variable: { name: "BasicAuthPassword" } }] })).toEqual({
      setVariableData: [{ attributeValue: "•••", component: { name: "SecurityCtrlr" }, variable: { name: "BasicAuthPassword" } }],
    });
    // NotifyReport: the device model's attributes.
    expect(redact({ reportData: [{ component: { name: "SecurityCtrlr" }, variable: { name: "BasicAuthPassword" }, variableAttribute: [{ type: "Actual", value: "pw" }] }] })).toEqual({
      reportData: [{ component: { name: "SecurityCtrlr" }, variable: { name: "BasicAuthPassword" }, variableAttribute: [{ type: "Actual", value: "•••" }] }],
    });
    expect(redact({ password: "x", idTag: "04AABB" })).toEqual({ password: "•••", idTag: "04AABB" });
  });

  it("URLs lose their user info and Enchufá's upload token", () => {
    expect(redact({ location: "ftp://user:pass@fw.example.com/a.bin" })).toEqual({ location: "ftp://•••@fw.example.com/a.bin" });
    expect(redact({ location: "https://enchufa.test/api/ChargerUpload/0b6e0c8a-1c1d-4c5e-9a43-3a0f0f0f0f0f/abcDEF_123-xyzabcDEF_123-xyzabcd" })).toEqual({
      location: "https://enchufa.test/api/ChargerUpload/0b6e0c8a-1c1d-4c5e-9a43-3a0f0f0f0f0f/•••",
    });
    expect(redact({ info: "no es una url: user:pass@x" })).toEqual({ info: "no es una url: user:pass@x" });
  });

  it("a long payload is cut with a mark", () => {
    const text = payloadText({ data: "x".repeat(OCPP_MESSAGE_PAYLOAD_MAX * 2) });
    expect(text.length).toBeLessThan(OCPP_MESSAGE_PAYLOAD_MAX + 60);
    expect(text).toMatch(/… \(recortado, \d+ caracteres\)$/);
  });
});

describe("readFrame", () => {
  it("files a result and an error under the action of the call they answer, in either direction", () => {
    const pending = new Map<string, string>();
    expect(readFrame('[2,"a1","Heartbeat",{}]', "IN", pending)).toMatchObject({ messageType: 2, action: "Heartbeat", messageId: "a1" });
    expect(readFrame('[2,"a1","Reset",{"type":"Soft"}]', "OUT", pending)).toMatchObject({ action: "Reset" });
    expect(readFrame('[3,"a1",{"currentTime":"2030-01-01T00:00:00Z"}]', "OUT", pending)).toMatchObject({ messageType: 3, action: "Heartbeat" });
    expect(readFrame('[4,"a1","NotImplemented","no",{}]', "IN", pending)).toMatchObject({ messageType: 4, action: "Reset", payload: '{"errorCode":"NotImplemented","errorDescription":"no","errorDetails":{}}' });
    expect(readFrame('[3,"zz",{}]', "IN", pending)).toMatchObject({ action: null });
    expect(pending.size).toBe(0);
  });

  it("stores plain frames as they came, and sends anything that may hold a secret through the redaction", () => {
    const pending = new Map<string, string>();
    expect(readFrame('[2, "m1", "MeterValues", {"connectorId":1,"meterValue":[]}]', "IN", pending)).toMatchObject({ action: "MeterValues", payload: '{"connectorId":1,"meterValue":[]}' });
    const key = readFrame('[2,"k1","ChangeConfiguration",{"key":"AuthorizationKey","value":"s3cret-0123456789"}]', "OUT", pending)!;
    expect(key.payload).not.toContain("s3cret");
    expect(key.payload).toContain("•••");
    const url = readFrame('[2,"u1","UpdateFirmware",{"location":"ftp://user:pass@fw.example.com/a.bin","retrieveDate":"2030-01-01T00:00:00Z"}]', "OUT", pending)!;
    expect(url.payload).toBe('{"location":"ftp://•••@fw.example.com/a.bin","retrieveDate":"2030-01-01T00:00:00Z"}');
    // A result that names a password (a charger echoing its configuration) is redacted too.
    const echo = readFrame('[3,"k1",{"configurationKey":[{"key":"AuthorizationKey","value":"s3cret-0123456789","readonly":false}]}]', "IN", pending)!;
    expect(echo).toMatchObject({ messageType: 3, action: "ChangeConfiguration" });
    expect(echo.payload).not.toContain("s3cret");
  });

  it("keeps a frame that is not JSON as text; ignores JSON that is not a frame", () => {
    expect(readFrame("{not json", "IN", new Map())).toMatchObject({ messageType: 0, payload: "{not json" });
    expect(readFrame('{"a":1}', "IN", new Map())).toBeNull();
  });
});
