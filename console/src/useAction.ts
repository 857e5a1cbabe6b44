import { useState } from "react";
import { ApiError, type ErrorInfo } from "./api.ts";

/** One admin action at a time: busy while it runs, then its notice or its typed error. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorInfo | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const act = async (what: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    setNotice(undefined);
    try {
      await what();
    } catch (failure) {
      setError(
        failure instanceof ApiError ? failure.info : { error: "network_error", message: String(failure) },
      );
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, notice, setNotice, act };
}
