/** Which rows the downloads hold, in words (console/src/download-words.ts; trial s7, finding 16: "(all 1 records)"). */
import { describe, expect, it } from "vitest";
import { downloadWords, kindOf } from "../../console/src/download-words.js";

describe("downloadWords", () => {
  it("says one record in the singular, and counts the others", () => {
    expect(downloadWords("records", 1, 0, false)).toBe("the 1 record");
    expect(downloadWords("leads", 4, 0, false)).toBe("all 4 leads");
    expect(downloadWords("rows", 1_200, 0, false)).toBe("all 1,200 rows");
    expect(downloadWords("rows", 2, 0, true)).toBe("the 2 rows loaded so far");
    expect(downloadWords("rows", 1, 0, true)).toBe("the 1 row loaded so far");
    expect(downloadWords("rows", 5, 5, false)).toBe(
      "rows 6–10 only: the 5 before them are not in these files",
    );
    expect(downloadWords("rows", 1, 1, false)).toBe("row 2 only: the 1 before it is not in these files");
    expect(`Showing 1 of 1 ${kindOf(1, "records")}`).toBe("Showing 1 of 1 record");
  });
});
