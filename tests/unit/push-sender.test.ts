// The firebase-admin sender behind the API's sendPush: data-only messages, batches of 500,
// unregistered tokens reported back for deletion.
import { describe, expect, it, vi } from "vitest";
import type { BatchResponse, MulticastMessage } from "firebase-admin/messaging";
import { createFcmSender, toFcmMessage } from "../../server/push";

const message = {
  notificationId: "n1",
  type: "CHARGER_FAULTED",
  title: "Cargador en falla",
  body: "CP-1 reportó una falla.",
  link: "/charger",
};

describe("FCM sender", () => {
  it("builds a data-only web push message with the in-app link", () => {
    const m = toFcmMessage(["a"], message);
    expect(m).toMatchObject({
      tokens: ["a"],
      data: {
        notificationId: "n1",
        type: "CHARGER_FAULTED",
        title: "Cargador en falla",
        body: "CP-1 reportó una falla.",
        link: "/charger",
      },
    });
    expect(m.notification).toBeUndefined();
    expect(
      toFcmMessage(["a"], { ...message, link: null }).data
    ).not.toHaveProperty("link");
  });

  it("reports unregistered and invalid tokens, not other failures, in batches of 500", async () => {
    const tokens = Array.from({ length: 501 }, (_, i) => `t${i}`);
    const sendEachForMulticast = vi.fn(
      async (m: MulticastMessage): Promise<BatchResponse> => {
        const responses = m.tokens.map((t) => {
          if (t === "t1")
            return {
              success: false,
              error: { code: "messaging/registration-token-not-registered" },
            };
          if (t === "t500")
            return {
              success: false,
              error: { code: "messaging/invalid-registration-token" },
            };
          if (t === "t2")
            return {
              success: false,
              error: { code: "messaging/internal-error" },
            };
          return { success: true, messageId: `m-${t}` };
        }) as BatchResponse["responses"];
        const failureCount = responses.filter((r) => !r.success).length;
        return {
          responses,
          successCount: responses.length - failureCount,
          failureCount,
        };
      }
    );
    const result = await createFcmSender({ sendEachForMulticast })(
      tokens,
      message
    );
    expect(sendEachForMulticast).toHaveBeenCalledTimes(2);
    expect(
      sendEachForMulticast.mock.calls.map(([m]) => m.tokens.length)
    ).toEqual([500, 1]);
    expect(result).toEqual({
      successCount: 498,
      failureCount: 3,
      unregistered: ["t1", "t500"],
    });
  });
});
